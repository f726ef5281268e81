package dev.ratelimit.interceptor.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.blocked.BlockedClientRecorder;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The {@code ratelimit} actuator endpoint and the {@code rateLimit} health component, over HTTP. */
class ActuatorTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void theEndpointShowsTheSnapshotTheRulesInForceTheStoreAndTheCounts() {
        ConfigurableApplicationContext app = env.start(
                "management.endpoints.web.exposure.include=ratelimit,ratelimitrules",
                "ratelimit.whitelist.ips=192.0.2.0/24");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        env.redis().commands().hset("ratelimit:sysconfig", "fixture.LimitedController.user.count", "9");
        env.redis().commands().hset("ratelimit:sysconfig", "dynuri./open/**", "3/60");
        env.redis().commands().hset("ratelimit:sysconfig", "fixture./open/**.mode", "shadow");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            app.getBean(dev.ratelimit.interceptor.config.RuleSnapshotHolder.class).refresh();
            return report(http).path("rules").toString().contains("/open/**");
        });
        http.get("/stacked?usercode=ann");

        JsonNode report = report(http);

        assertThat(report.path("module").asString()).isEqualTo("fixture");
        JsonNode snapshot = report.path("snapshot");
        assertThat(snapshot.path("version").asLong()).isPositive();
        assertThat(snapshot.path("ageSeconds").asLong()).isBetween(0L, 30L);
        assertThat(snapshot.path("globalCheck").asBoolean()).isTrue();
        assertThat(snapshot.path("globalMode").asString()).isEqualTo("enforce");
        assertThat(snapshot.path("whitelistIps").toString()).as("hidden by default (ActuatorShowValuesTest)")
                .isEqualTo("[\"******\"]");
        assertThat(rule(report, "fixture.LimitedController.user").toString()).isEqualTo(
                "{\"id\":\"fixture.LimitedController.user\",\"source\":\"annotation\",\"pattern\":\"/user\","
                        + "\"httpMethods\":[\"GET\"],\"declared\":{\"count\":50,\"windowSeconds\":60,\"dimension\":\"USER\","
                        + "\"algorithm\":\"FIXED_WINDOW\"},\"inForce\":{\"count\":9,\"windowSeconds\":60,\"dimension\":\"USER\","
                        + "\"algorithm\":\"FIXED_WINDOW\"},\"enabled\":true,\"mode\":\"enforce\",\"overridden\":[\"count\"]}");
        assertThat(rule(report, "fixture./open/**").toString()).isEqualTo(
                "{\"id\":\"fixture./open/**\",\"source\":\"dynuri\",\"pattern\":\"/open/**\",\"inForce\":{\"count\":3,"
                        + "\"windowSeconds\":60,\"dimension\":\"USER\",\"algorithm\":\"FIXED_WINDOW\"},\"enabled\":true,"
                        + "\"mode\":\"shadow\",\"overridden\":[\"mode\"]}");
        assertThat(rule(report, "fixture.PartnerClient.queued").toString()).isEqualTo(
                "{\"id\":\"fixture.PartnerClient.queued\",\"source\":\"annotation\",\"kind\":\"method\","
                        + "\"handler\":\"dev.ratelimit.interceptor.fixture.PartnerClient.queued(java.lang.String)\","
                        + "\"maxWaitMillis\":3000,\"declared\":{\"count\":5,\"windowSeconds\":2,\"dimension\":\"CUSTOM\","
                        + "\"algorithm\":\"FIXED_WINDOW\"},\"inForce\":{\"count\":5,\"windowSeconds\":2,"
                        + "\"dimension\":\"CUSTOM\",\"algorithm\":\"FIXED_WINDOW\"},\"enabled\":true,\"mode\":\"enforce\"}");
        assertThat(rule(report, "fixture.PartnerQuota").toString()).contains("\"kind\":\"code\"")
                .contains("\"handler\":\"RateLimitRule bean 'partnerQuota'\"");
        JsonNode store = report.path("store");
        assertThat(store.path("type").asString()).isEqualTo("redis");
        JsonNode details = store.path("details");
        assertThat(details.path("circuit").path("state").asString()).isEqualTo("closed");
        assertThat(details.path("failurePolicy").asString()).isEqualTo("local");
        assertThat(details.path("silence").asString()).isEqualTo(ShippedDefaults.SILENCE.toString());
        assertThat(details.path("nearCache").path("maxEntries").asInt()).isEqualTo(10_000);
        assertThat(report.path("counts").path("allowed").asLong()).isEqualTo(2);
        assertThat(report.path("blocked").path("clients").isArray()).isTrue();
        assertThat(report.path("maxmemoryPolicy").path("policy").asString()).isEqualTo("noeviction");
        assertThat(report.path("maxmemoryPolicy").path("evictsConfig").asBoolean()).isFalse();
        assertThat(nullsIn(report, "")).as("an absent value is left out, as the API index leaves it out").isEmpty();

        HttpResponse<String> rules = http.get("/actuator/ratelimitrules");
        assertThat(rules.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/yaml");
        assertThat(rules.body()).contains("ratelimit-rules: 1", "LimitedController.user:", "count: 9  # declared: 50",
                "'/open/**':", "mode: shadow  # the uri rule /open/** in this module");
        assertThat(report.path("blocked").path("error").isMissingNode()).as("no error: left out").isTrue();
    }

    @Test
    void theEndpointListsTheClientsBlockedNow() {
        ConfigurableApplicationContext app = env.start("management.endpoints.web.exposure.include=ratelimit");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=zed";
        for (int i = 0; i <= AlgorithmController.LIMIT; i++) {
            http.status(path);
        }
        app.getBean(BlockedClientRecorder.class).flush();

        JsonNode blocked = report(http).path("blocked").path("clients");

        assertThat(blocked.size()).isEqualTo(1);
        assertThat(blocked.get(0).path("member").asString()).isEqualTo("AlgorithmController.fixedWindow:USER:******");
        assertThat(blocked.get(0).path("identity").asString()).as("hidden by default (ActuatorShowValuesTest)")
                .isEqualTo("******");
        assertThat(blocked.get(0).path("rule").asString()).isEqualTo("AlgorithmController.fixedWindow");
    }

    /** A concurrency limit's window is its lease, and the leases this instance holds are listed by rule. */
    @Test
    void theEndpointShowsTheLeasesThisInstanceHolds() throws Exception {
        ConfigurableApplicationContext app = env.start("management.endpoints.web.exposure.include=ratelimit");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> held = sender.submit(() -> http.status("/concurrent/gated?usercode=lea&run=actuator"));
            Awaitility.await("the request inside").atMost(Duration.ofSeconds(10))
                    .until(() -> Occupancy.of("actuator").inside() == 1);

            JsonNode report = report(http);
            assertThat(report.path("leases").path("held").asLong()).isEqualTo(1);
            assertThat(report.path("leases").path("heldByRule").toString()).isEqualTo("{\"fixture.running\":1}");
            assertThat(report.path("leases").path("maxHold").asString())
                    .isEqualTo(ShippedDefaults.LEASE_MAX_HOLD.toString());
            assertThat(rule(report, "fixture.running").path("inForce").toString()).isEqualTo("{\"count\":2,"
                    + "\"windowSeconds\":10,\"dimension\":\"USER\",\"algorithm\":\"CONCURRENCY\"}");
            Occupancy.of("actuator").open();
            assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(200);
            Awaitility.await("released").atMost(Duration.ofSeconds(10))
                    .until(() -> report(http).path("leases").path("held").asLong() == 0);
        } finally {
            sender.shutdownNow();
        }
    }

    @Test
    void theHealthComponentIsTheAppsChoice() {
        ConfigurableApplicationContext app = env.start("management.endpoint.health.show-details=always",
                "management.endpoint.health.show-components=always");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));

        assertThat(http.get("/actuator/health/rateLimit").statusCode()).isEqualTo(404);
        assertThat(json(http.get("/actuator/health")).path("components").has("rateLimit")).isFalse();
    }

    @Test
    void theHealthComponentStaysUpWithAnOpenCircuit() {
        ConfigurableApplicationContext app = env.start("management.endpoint.health.show-details=always",
                "management.endpoint.health.show-components=always", "management.health.ratelimit.enabled=true");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        JsonNode closed = json(http.get("/actuator/health/rateLimit"));
        assertThat(closed.path("status").asString()).isEqualTo("UP");
        assertThat(closed.path("details").path("circuit").asString()).isEqualTo("closed");
        assertThat(closed.path("details").path("maxmemoryPolicy").asString()).isEqualTo("noeviction");
        assertThat(closed.path("details").path("configEvictable").asBoolean()).isFalse();

        env.redis().stop();
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            http.get("/user?usercode=hal");
            return !circuit.isClosed();
        });

        HttpResponse<String> open = http.get("/actuator/health/rateLimit");
        assertThat(open.statusCode()).isEqualTo(200);
        JsonNode details = json(open).path("details");
        assertThat(json(open).path("status").asString()).isEqualTo("UP");
        assertThat(details.path("circuit").asString()).isEqualTo("open");
        assertThat(details.path("failurePolicy").asString()).isEqualTo("local");
        assertThat(details.path("lastFailure").asString()).isNotEmpty();
    }

    private static JsonNode report(HttpProbe http) {
        HttpResponse<String> response = http.get("/actuator/ratelimit");
        assertThat(response.statusCode()).isEqualTo(200);
        return json(response);
    }

    private static JsonNode rule(JsonNode report, String id) {
        for (JsonNode rule : report.path("rules")) {
            if (rule.path("id").asString().equals(id)) {
                return rule;
            }
        }
        throw new AssertionError("no rule " + id + " in " + report.path("rules"));
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** The paths of the null values anywhere in a JSON tree. */
    private static List<String> nullsIn(JsonNode node, String path) {
        List<String> nulls = new ArrayList<>();
        if (node.isNull()) {
            nulls.add(path);
        } else if (node.isObject()) {
            node.properties().forEach(field -> nulls.addAll(nullsIn(field.getValue(), path + "." + field.getKey())));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                nulls.addAll(nullsIn(node.get(i), path + "[" + i + "]"));
            }
        }
        return nulls;
    }
}
