package dev.ratelimit.consoleapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.ConsoleSession;
import dev.ratelimit.console.ErrorLog;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console as an application of its own, as an operator runs it: its shipped properties, the
 * shared Redis and log database given by {@code spring.*} properties, and two other apps beside it.
 */
class ConsoleApplicationTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String SHARED_LOG = "spring.datasource.url=jdbc:h2:mem:shared-log;DB_CLOSE_DELAY=-1";
    private static final List<String> MODULES = List.of("orders", "billing");
    private static final int EXTRA = 3;
    /** A complete 10-second bucket, written by the apps at its end, and the log writer's coalescing second. */
    private static final Duration BUCKET_AND_FLUSH = Duration.ofSeconds(25);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static RedisServerProcess redis;
    private static List<ConfigurableApplicationContext> apps;
    private static ConfigurableApplicationContext console;
    private static ErrorLog errors;

    @BeforeAll
    static void start() {
        errors = ErrorLog.capture();
        redis = RedisServerProcess.start();
        apps = MODULES.stream().map(module -> OtherApps.start(redis.port(), module, SHARED_LOG)).toList();
        console = ConsoleApplication.application().run("--server.port=0",
                "--spring.data.redis.port=" + redis.port(), "--" + SHARED_LOG, "--" + ConsoleSession.PASSWORD_PROPERTY);
    }

    @AfterAll
    static void stop() {
        console.close();
        errors.close();
        apps.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }

    @Test
    void itShowsTheRulesLiveTrafficInterceptionsAndBlockedClientsOfTwoOtherApps() {
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=eve";
        for (ConfigurableApplicationContext app : apps) {
            HttpProbe probe = new HttpProbe(FixtureApplication.port(app));
            for (int i = 0; i < AlgorithmController.LIMIT + EXTRA; i++) {
                probe.status(path);
            }
        }
        ConsoleSession session = ConsoleSession.signedIn(FixtureApplication.port(console));

        String rules = session.get(CONSOLE + "/rules").body();
        for (String module : MODULES) {
            assertThat(rules).contains("rule-" + module + ".AlgorithmController.fixedWindow");
        }
        assertThat(rules).doesNotContain("rule-console.");

        JsonNode live = Awaitility.await("both apps' traffic in a complete bucket").atMost(BUCKET_AND_FLUSH)
                .until(() -> live(session), view -> total(view, "blocked") == MODULES.size() * EXTRA
                        && total(view, "allowed") == MODULES.size() * AlgorithmController.LIMIT);
        assertThat(StreamSupport.stream(live.get("modules").spliterator(), false).map(module -> module.get("module").asString()))
                .containsExactlyInAnyOrderElementsOf(MODULES);
        assertThat(StreamSupport.stream(live.get("instances").spliterator(), false).map(instance -> instance.get("port").asInt()))
                .as("the apps, not the console").containsExactlyInAnyOrderElementsOf(
                        apps.stream().map(FixtureApplication::port).toList());

        String logs = Awaitility.await("the interceptions written").atMost(BUCKET_AND_FLUSH)
                .until(() -> session.get(CONSOLE + "/logs").body(),
                        body -> body.contains("Total: " + MODULES.size() * EXTRA + " interceptions"));
        for (String module : MODULES) {
            assertThat(logs).contains(module + ".AlgorithmController.fixedWindow");
        }
        String blocked = Awaitility.await("eve listed in both apps").atMost(BUCKET_AND_FLUSH)
                .until(() -> session.get(CONSOLE + "/blocked").body(),
                        body -> MODULES.stream().allMatch(module -> body.contains(module + ".AlgorithmController.fixedWindow")));
        assertThat(blocked).contains("eve");
    }

    /**
     * Spring Security is on the console app's classpath (for single sign-on), and its firewall rejects some
     * malformed addresses (a doubled slash, a {@code ;} parameter, an encoded {@code %}, line break or
     * {@code ;}, a {@code .} segment) before the console sees them. Kept, as a firewall is kept: the answer is
     * 400, which is what such an address is, with the console's own error page for a browser instead of the
     * white-label page, Spring Boot's JSON for other clients, and nothing logged at ERROR.
     */
    @Test
    void anAddressTheFirewallRejectsAnswersTheConsolesErrorPage() {
        HttpProbe http = new HttpProbe(FixtureApplication.port(console));
        int before = errors.mark();
        for (String address : List.of("//rules", "/rules;jsessionid=1", "/%25", "/logs%0a", "/./rules", "/rules%3Bx")) {
            HttpResponse<String> page = http.get(CONSOLE + address, "Accept", "text/html");

            assertThat(page.statusCode()).as(address).isEqualTo(400);
            assertThat(page.body()).as(address).contains("<h1>Error 400</h1>")
                    .contains("The console cannot read this address: look for a doubled slash")
                    .contains("href=\"" + CONSOLE + "/\"").doesNotContain("Whitelabel");
            assertThat(http.get(CONSOLE + address).headers().firstValue("Content-Type").orElseThrow()).as(address)
                    .startsWith("application/json");
        }
        assertThat(errors.since(before)).isEmpty();
    }

    private static JsonNode live(ConsoleSession session) {
        HttpResponse<String> response = session.get(CONSOLE + "/live.json");
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static long total(JsonNode view, String outcome) {
        double perSecond = StreamSupport.stream(view.get("total").get(outcome).spliterator(), false)
                .mapToDouble(JsonNode::asDouble).sum();
        return Math.round(perSecond * view.get("stepSeconds").asInt());
    }
}
