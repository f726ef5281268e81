package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.HttpLoad;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis that does not answer (paused with {@code CLIENT PAUSE}) holds a request no longer than the
 * limiter's timeout, 100 ms here, while the app's own Redis use keeps its own, longer timeout. Prints
 * the latency figures.
 */
class SlowRedisTest {

    private static final long TIMEOUT_MILLIS = 100;
    /** Room for the HTTP round trip and a busy test machine on top of the timeout. */
    private static final long SLACK_MILLIS = 250;
    /**
     * No request at all may come near the pause (4-6 s): the odd request that a shared test machine
     * stalls for a few hundred milliseconds is not the limiter's doing, so the bound near the timeout
     * is on a high percentile.
     */
    private static final long NO_REQUEST_WAITS_MILLIS = 2_000;
    /** The pause of the test of the app's own timeout, which the app's own read sits through. */
    private static final int PAUSE_MILLIS = 1_500;

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    /** Waits for the pause to end (in mode ALL Redis would hold {@code CLIENT UNPAUSE} as well). */
    @AfterEach
    void awaitPauseEnd() {
        env.redis().commands().ping();
    }

    @Test
    void aPausedRedisCostsARequestAtMostTheTimeoutAndThenNothingOnceTheCircuitOpens() throws Exception {
        ConfigurableApplicationContext app = env.start("ratelimit.redis.timeout=" + TIMEOUT_MILLIS + "ms");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        List<HttpLoad.Sample> healthy = HttpLoad.run(http, 4, 400, i -> "/stacked?usercode=healthy-" + i);

        env.redis().commands().clientPause(4_000);
        List<HttpLoad.Sample> paused = HttpLoad.run(http, 4, 400, i -> "/stacked?usercode=paused-" + i);

        // The per-IP limit (100 a minute) holds in the process too, so most of the 400 are rejected.
        assertThat(paused).allSatisfy(sample -> assertThat(sample.status()).isIn(200, 429));
        assertThat(HttpLoad.percentileMillis(paused, 99)).isLessThan(TIMEOUT_MILLIS + SLACK_MILLIS);
        assertThat(HttpLoad.percentileMillis(paused, 100)).isLessThan(NO_REQUEST_WAITS_MILLIS);
        assertThat(app.getBean(CircuitBreaker.class).isClosed()).isFalse();
        printFigures("circuit opens after 5 timeouts", healthy, paused);
    }

    /** With a circuit that never opens every request meets the paused Redis, and waits the timeout, not more. */
    @Test
    void withoutTheCircuitEveryRequestWaitsTheTimeoutAndNoLonger() throws Exception {
        ConfigurableApplicationContext app = env.start("ratelimit.redis.timeout=" + TIMEOUT_MILLIS + "ms",
                "ratelimit.redis-failure.threshold=1000000");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        List<HttpLoad.Sample> healthy = HttpLoad.run(http, 4, 100, i -> "/stacked?usercode=healthy-" + i);

        env.redis().commands().clientPause(6_000);
        List<HttpLoad.Sample> paused = HttpLoad.run(http, 4, 100, i -> "/stacked?usercode=paused-" + i);

        assertThat(paused).allSatisfy(sample -> assertThat(sample.status()).isIn(200, 429));
        assertThat(HttpLoad.percentileMillis(paused, 50)).isGreaterThanOrEqualTo(TIMEOUT_MILLIS * 0.9);
        assertThat(HttpLoad.percentileMillis(paused, 95)).isLessThan(TIMEOUT_MILLIS + SLACK_MILLIS);
        assertThat(HttpLoad.percentileMillis(paused, 100)).isLessThan(NO_REQUEST_WAITS_MILLIS);
        printFigures("circuit never opens", healthy, paused);
    }

    @Test
    void theAppsOwnRedisUseKeepsItsOwnTimeout() {
        ConfigurableApplicationContext app = env.start("ratelimit.redis.timeout=" + TIMEOUT_MILLIS + "ms",
                "spring.data.redis.timeout=5s");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        StringRedisTemplate appRedis = app.getBean(StringRedisTemplate.class);
        appRedis.opsForValue().set("app-key", "v");
        // The app's first request initialises its web layer, which a busy machine can stretch past the bound.
        assertThat(http.status("/user?usercode=before-pause")).isEqualTo(200);

        env.redis().commands().clientPause(PAUSE_MILLIS);
        long start = System.nanoTime();
        int limited = http.status("/user?usercode=during-pause");
        long limiterMillis = (System.nanoTime() - start) / 1_000_000;
        String value = appRedis.opsForValue().get("app-key");
        long appMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(limited).isEqualTo(200);
        // Its own timeout, not the app's: the app's read below sits through the pause. How close one request
        // comes to the timeout is the other tests' percentiles over hundreds: a single one on a busy machine
        // took 390-398 ms against the 350 ms they allow.
        assertThat(limiterMillis).as("the limiter's wait during the pause").isLessThan(PAUSE_MILLIS / 2);
        assertThat(value).isEqualTo("v");
        assertThat(appMillis).isGreaterThan(1_000);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> app.getBean(CircuitBreaker.class).isClosed());
    }

    private static void printFigures(String setting, List<HttpLoad.Sample> healthy, List<HttpLoad.Sample> paused) {
        System.out.printf("FIGURES paused Redis, timeout %d ms, %s: healthy p50 %.1f ms p99 %.1f ms; "
                        + "paused p50 %.1f ms p95 %.1f ms p99 %.1f ms max %.1f ms; p99 paused minus healthy %.1f ms "
                        + "(%d requests, 4 threads)%n",
                TIMEOUT_MILLIS, setting, HttpLoad.percentileMillis(healthy, 50), HttpLoad.percentileMillis(healthy, 99),
                HttpLoad.percentileMillis(paused, 50), HttpLoad.percentileMillis(paused, 95),
                HttpLoad.percentileMillis(paused, 99), HttpLoad.percentileMillis(paused, 100),
                HttpLoad.percentileMillis(paused, 99) - HttpLoad.percentileMillis(healthy, 99), paused.size());
    }
}
