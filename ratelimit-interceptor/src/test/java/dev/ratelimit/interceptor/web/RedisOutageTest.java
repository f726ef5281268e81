package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** Redis killed under a running app: requests keep being answered, and limiting resumes when Redis is back. */
class RedisOutageTest {

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        app = FixtureApplication.start(redis.port(), "spring.data.redis.timeout=300ms");
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @AfterAll
    static void stop() {
        app.close();
        redis.close();
    }

    @Test
    void failsOpenWhileRedisIsDownAndLimitsAgainWhenItIsBack() {
        assertThat(http.status("/stacked?usercode=olga")).isEqualTo(200);
        assertThat(http.status("/stacked?usercode=olga")).isEqualTo(200);
        assertThat(http.status("/stacked?usercode=olga")).isEqualTo(429);

        redis.stop();
        for (int i = 0; i < 5; i++) {
            assertThat(http.status("/stacked?usercode=olga")).isEqualTo(200);
        }

        redis.restart();
        // The restarted server is empty and knows no scripts: the store must reconnect and load them again.
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
            http.get("/stacked?usercode=probe");
            return redis.commands().exists("ratelimit:counter:fixture:LimitedController.stacked#user:USER:probe") == 1;
        });
        assertThat(http.status("/stacked?usercode=pete")).isEqualTo(200);
        assertThat(http.status("/stacked?usercode=pete")).isEqualTo(200);
        assertThat(http.status("/stacked?usercode=pete")).isEqualTo(429);
    }
}
