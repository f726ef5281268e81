package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * What monitoring and the platform see: health and info for anyone (the probes), the health of each part and every
 * other endpoint for an admin only.
 */
@BookshopTest
class ActuatorTest {

    @Autowired
    TestRestTemplate rest;

    @Test
    void anyoneSeesThatTheShopIsUpButNotItsParts() {
        ResponseEntity<String> health = rest.getForEntity("/actuator/health", String.class);

        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.<Map<String, Object>>read(health.getBody(), "$")).containsOnlyKeys("status", "groups")
                .containsEntry("status", "UP");
    }

    @Test
    void anAdminSeesTheHealthOfEachPartOfTheShop() {
        ResponseEntity<String> health = asAdmin("/actuator/health");

        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        Map<String, Map<String, Object>> components = JsonPath.read(health.getBody(), "$.components");
        assertThat(components).containsOnlyKeys("db", "diskSpace", "livenessState", "ping", "readinessState", "ssl");
        assertThat(components.values()).allSatisfy(component -> assertThat(component).containsEntry("status", "UP"));
        assertThat(JsonPath.<String>read(health.getBody(), "$.components.db.details.database")).isEqualTo("H2");
    }

    @Test
    void theProbesAnswerUp() {
        assertThat(rest.getForEntity("/actuator/health/liveness", String.class).getBody()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(rest.getForEntity("/actuator/health/readiness", String.class).getBody()).isEqualTo("{\"status\":\"UP\"}");

        Map<String, Object> readiness = JsonPath.read(asAdmin("/actuator/health/readiness").getBody(), "$.components");
        assertThat(readiness).containsOnlyKeys("db", "readinessState");
    }

    @Test
    void anyoneReadsTheInfo() {
        assertThat(rest.getForEntity("/actuator/info", String.class).getBody()).isEqualTo("{\"shop\":{\"name\":\"Bookshop\"}}");
    }

    @Test
    void theOtherEndpointsAreForAdminsOnly() {
        ResponseEntity<String> anonymous = rest.withRedirects(HttpRedirects.DONT_FOLLOW).getForEntity("/actuator/env",
                String.class);
        assertThat(anonymous.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(anonymous.getHeaders().getLocation()).hasPath("/login");
        assertThat(rest.withBasicAuth("reader", "reader-secret").getForEntity("/actuator/env", String.class)
                .getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(asAdmin("/actuator/env").getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(asAdmin("/actuator").getBody()).contains("/actuator/beans", "/actuator/caches", "/actuator/metrics",
                "/actuator/mappings", "/actuator/loggers");
    }

    @Test
    void theCachesEndpointShowsTheShopsCache() {
        Map<String, Map<String, Object>> managers = JsonPath.read(asAdmin("/actuator/caches").getBody(), "$.cacheManagers");

        assertThat(managers).containsOnlyKeys("cacheManager");
        assertThat(JsonPath.<Map<String, Object>>read(asAdmin("/actuator/caches").getBody(), "$.cacheManagers.cacheManager.caches"))
                .containsOnlyKeys(Catalog.BOOKS);
    }

    private ResponseEntity<String> asAdmin(String path) {
        return rest.withBasicAuth("ops", "ops-secret").getForEntity(path, String.class);
    }
}
