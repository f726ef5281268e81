package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.console.report.LogEntry;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogPageRequest;
import dev.ratelimit.console.report.LogReports;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The demo as a new user runs it: its own embedded redis-server, the fourth hello in 10 s rejected, and
 * the rejection written to the demo's in-memory H2.
 */
@ExtendWith(OutputCaptureExtension.class)
class DemoApplicationTest {

    @Test
    void startsWithItsOwnRedisAndRejectsTheRequestAfterTheLimit() {
        try (ConfigurableApplicationContext demo = startDemo()) {
            assertThat(demo.getEnvironment().getProperty("spring.data.redis.port")).isNotEqualTo("6379");
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));

            for (int i = 0; i < 3; i++) {
                assertThat(http.status("/api/hello?usercode=newcomer")).isEqualTo(200);
            }
            HttpResponse<String> rejected = http.get("/api/hello?usercode=newcomer");
            assertThat(rejected.statusCode()).isEqualTo(429);
            assertThat(rejected.body()).contains("\"ratelimit\":1");

            LogReports reports = demo.getBean(LogReports.class);
            LogFilter newcomer = new LogFilter(null, null, "demo", null, "newcomer", null);
            await().until(() -> reports.detail(newcomer, LogPageRequest.newest(0, 10)).total() == 1);
            assertThat(reports.detail(newcomer, LogPageRequest.newest(0, 10)).rows().get(0))
                    .extracting(LogEntry::rule, LogEntry::uri, LogEntry::limitCount, LogEntry::windowSeconds)
                    .containsExactly(RuleId.of("demo", "DemoController.hello"), "/api/hello", 3L, 10L);

            assertThat(http.status("/api/hello")).isEqualTo(200);
        }
    }

    @Test
    void startsWithoutAWarning(CapturedOutput output) {
        try (ConfigurableApplicationContext demo = startDemo()) {
            assertThat(demo.getBean(LogReports.class)).as("the log on the demo's H2").isNotNull();
            assertThat(output.getAll()).doesNotContain(" WARN ").doesNotContain("No MyBatis mapper was found");
        }
    }

    @Test
    void reportsItsApiIndexAtStartUp() {
        try (ConfigurableApplicationContext demo = startDemo()) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));

            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(http.get("/api/index").body())
                    .contains("\"demo.DemoController.hello\":{\"pattern\":\"/api/hello\",\"patterns\":[\"/api/hello\"],"
                            + "\"methods\":[\"GET\"],\"handler\":\"dev.ratelimit.demo.DemoController.hello(java.lang.String)\","
                            + "\"limits\":{\"demo.DemoController.hello\":{\"count\":3,\"windowSeconds\":10,"
                            + "\"dimension\":\"USER\",\"algorithm\":\"FIXED_WINDOW\"}}}")
                    .contains("\"demo.DemoController.open\"", "\"demo.ApiIndexController.index\""));
        }
    }

    @Test
    void theAppsOwnMessagesOverrideAndExtendTheBundledOnes() {
        try (ConfigurableApplicationContext demo = startDemo()) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));
            assertThat(http.post("/api/orders?usercode=buyer").statusCode()).isEqualTo(200);
            HttpResponse<String> rejected = http.post("/api/orders?usercode=buyer", "Accept-Language", "zh-CN");
            assertThat(rejected.statusCode()).isEqualTo(429);
            assertThat(rejected.body()).contains("您刚刚下过单");
            assertThat(http.status("/api/open")).isEqualTo(200);
        }
    }

    /** As docs/getting-started.md (Demo endpoints) shows it: a user denied by hand in the config hash is refused where no limit applies. */
    @Test
    void aUserOnTheDenyListIsRefusedEvenWhereNoLimitApplies() {
        try (ConfigurableApplicationContext demo = startDemo()) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));
            assertThat(http.status("/api/account?usercode=mallory")).isEqualTo(200);
            RedisClusterCommands<String, String> redis = demo.getBean(LimiterRedisConnection.class).backgroundWork().sync();

            redis.hset("ratelimit:sysconfig", "deny.user.mallory", "forever scraping the accounts");
            redis.publish("ratelimit:config-changed", "deny.user.mallory");

            Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> http.status("/api/account?usercode=mallory") == 403);
            HttpResponse<String> refused = http.get("/api/hello?usercode=mallory", "Accept-Language", "zh-CN");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).isEqualTo("{\"error\":\"访问被拒绝。\",\"successful\":0,\"ratelimit\":1,\"denied\":1}");
            assertThat(http.status("/api/account?usercode=alice")).isEqualTo(200);
        }
    }

    /** The demo on a free port, with its shipped settings. */
    static ConfigurableApplicationContext startDemo() {
        return SpringApplication.run(DemoApplication.class, "--server.port=0");
    }
}
