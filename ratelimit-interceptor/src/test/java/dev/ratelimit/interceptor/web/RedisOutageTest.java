package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpLoad;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Redis killed under a load of many threads, with the default failure policy ({@code local}): every
 * request is answered (none 5xx), limiting goes on in the process by the same rules, and Redis decides
 * again soon after it is back. Prints the figures: requests answered during the outage, their latency,
 * and the time from Redis' restart to its first decision.
 */
class RedisOutageTest {

    private static final String RECOVERY_KEY = "ratelimit:counter:fixture:LimitedController.user:USER:back";

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void everyRequestIsAnsweredThroughAnOutageAndRedisDecidesAgainSoonAfter() throws Exception {
        ConfigurableApplicationContext app = env.start();
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        RedisServerProcess redis = env.redis();
        // An operator's override, read before the outage: the snapshot keeps it while Redis is away.
        redis.commands().hset("ratelimit:sysconfig", "fixture.LimitedController.user.count", "20");
        app.getBean(RuleSnapshotHolder.class).refresh();

        long outageStart;
        long restarted;
        long recovered;
        List<HttpLoad.Sample> samples;
        try (HttpLoad load = new HttpLoad(http, 16, i -> "/stacked?usercode=load-" + (i % 500))) {
            load.awaitMore(300);
            outageStart = System.nanoTime();
            redis.stop();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !circuit.isClosed());

            // In the process, a rule admits exactly its limit, however many threads ask at once.
            int admitted = ConcurrentClients.admitted(8, 10, thread -> http.status("/user?usercode=local") == 200);
            assertThat(admitted).isEqualTo(20);
            load.awaitMore(300);

            redis.restart();
            restarted = System.nanoTime();
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
                http.get("/user?usercode=back");
                return redis.commands().exists(RECOVERY_KEY) == 1;
            });
            recovered = System.nanoTime();
            load.awaitMore(300);
            samples = load.samples();
        }

        assertThat(samples).allSatisfy(sample -> assertThat(sample.status()).as(sample.toString()).isIn(200, 429));
        // The probe closes the circuit within a probe interval or two of the restart.
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(circuit::isClosed);
        long recoveryMillis = (recovered - restarted) / 1_000_000;
        assertThat(recoveryMillis).isLessThan(5_000);
        List<HttpLoad.Sample> duringOutage = samples.stream()
                .filter(sample -> sample.sentIn(outageStart, recovered)).toList();
        System.out.printf("FIGURES outage: %d requests from 16 threads answered during the outage (%d s), "
                        + "%d of them 5xx or unanswered; latency p50 %.1f ms, p99 %.1f ms; "
                        + "Redis decided again %d ms after its restart; %d requests in the whole run%n",
                duringOutage.size(), (recovered - outageStart) / 1_000_000_000,
                duringOutage.stream().filter(sample -> sample.status() != 200 && sample.status() != 429).count(),
                HttpLoad.percentileMillis(duringOutage, 50), HttpLoad.percentileMillis(duringOutage, 99),
                recoveryMillis, samples.size());
    }
}
