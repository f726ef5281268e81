package dev.ratelimit.interceptor.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances share their traffic per rule through Redis: what 32 clients send to both adds up
 * exactly, at every bucket size, while they run and after they stop.
 */
class TrafficStatisticsTest {

    private static final int THREADS = 32;
    private static final int REQUESTS_PER_THREAD = 10;
    private static final int REQUESTS = THREADS * REQUESTS_PER_THREAD;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void theCountsOfTwoInstancesAddUpExactlyWhileTheyRun(Algorithm algorithm) throws Exception {
        List<HttpProbe> instances = List.of(new HttpProbe(FixtureApplication.port(env.start())),
                new HttpProbe(FixtureApplication.port(env.start())));
        Instant from = Instant.now();

        int admitted = ConcurrentClients.admitted(THREADS, REQUESTS_PER_THREAD, thread -> Statuses.admitted(
                instances.get(thread % 2).status(AlgorithmController.path(algorithm) + "?usercode=stats")));

        assertThat(admitted).isEqualTo(AlgorithmController.LIMIT);
        String rule = "AlgorithmController." + AlgorithmController.methodName(algorithm);
        await("both instances' counts in Redis").untilAsserted(() -> assertThat(
                totals(TrafficGranularity.TEN_SECONDS, from, rule)).isEqualTo(Map.of(
                Outcome.ALLOWED, (long) AlgorithmController.LIMIT,
                Outcome.BLOCKED, (long) (REQUESTS - AlgorithmController.LIMIT))));
        assertThat(totals(TrafficGranularity.MINUTE, from, rule))
                .isEqualTo(totals(TrafficGranularity.TEN_SECONDS, from, rule));
        assertThat(totals(TrafficGranularity.HOUR, from, rule))
                .isEqualTo(totals(TrafficGranularity.TEN_SECONDS, from, rule));
    }

    @Test
    void whatAStoppingInstanceCountedIsWrittenBeforeItStops() throws Exception {
        ConfigurableApplicationContext first = env.start();
        ConfigurableApplicationContext second = env.start();
        List<HttpProbe> instances = List.of(new HttpProbe(FixtureApplication.port(first)),
                new HttpProbe(FixtureApplication.port(second)));
        Instant from = Instant.now();
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=stopping";

        ConcurrentClients.admitted(THREADS, REQUESTS_PER_THREAD,
                thread -> Statuses.admitted(instances.get(thread % 2).status(path)));
        env.stop(first);
        env.stop(second);

        assertThat(totals(TrafficGranularity.TEN_SECONDS, from, "AlgorithmController.fixedWindow")).isEqualTo(Map.of(
                Outcome.ALLOWED, (long) AlgorithmController.LIMIT,
                Outcome.BLOCKED, (long) (REQUESTS - AlgorithmController.LIMIT)));
    }

    @Test
    void everyBucketExpiresAfterItsRetentionAndSharesItsModulesSlot() throws Exception {
        ConfigurableApplicationContext app = env.start();
        HttpProbe instance = new HttpProbe(FixtureApplication.port(app));
        instance.status(AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=ttl");
        env.stop(app);

        Set<String> buckets = Set.copyOf(env.redis().commands().keys("ratelimit:stats:*"));
        assertThat(buckets).hasSize(TrafficGranularity.values().length)
                .allSatisfy(key -> assertThat(key).startsWith("ratelimit:stats:{fixture}:"));
        for (TrafficGranularity granularity : TrafficGranularity.values()) {
            String key = buckets.stream().filter(bucket -> bucket.contains(":" + granularity.label() + ":"))
                    .findFirst().orElseThrow();
            assertThat(env.redis().commands().ttl(key))
                    .isPositive().isLessThanOrEqualTo(granularity.retention().toSeconds());
        }
    }

    private Map<Outcome, Long> totals(TrafficGranularity granularity, Instant from, String rule) {
        TrafficStatistics statistics = new TrafficStatistics(env.redis().connection().backgroundWork(), new RedisKeys("ratelimit"));
        Map<Outcome, Long> totals = new EnumMap<>(Outcome.class);
        statistics.read(List.of("fixture"), granularity, from.minus(granularity.size()),
                        Instant.now().plus(Duration.ofSeconds(1)))
                .stream().filter(count -> count.rule().rule().equals(rule))
                .forEach(count -> totals.merge(count.outcome(), count.count(), Long::sum));
        return totals;
    }
}
