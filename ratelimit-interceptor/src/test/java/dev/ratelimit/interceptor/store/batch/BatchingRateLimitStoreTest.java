package dev.ratelimit.interceptor.store.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.autoconfigure.RateLimitProperties;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.nearcache.NearCache;
import dev.ratelimit.interceptor.store.nearcache.NearCacheRateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.testsupport.BusyCpus;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two instances' batching stores, each on its own connection to one real Redis, with the shipped
 * {@code ratelimit.hot-keys.*}: a counter busy enough to be batched is never admitted past its limit, loses
 * no permit (what is not used goes back), and a limit lowered while permits are out applies at once.
 */
class BatchingRateLimitStoreTest {

    private static final RateLimitProperties.HotKeys DEFAULTS = Stores.DEFAULTS.hotKeys();
    /** A day: no test straddles a sliding window's boundary, and a token bucket earns back one unit in 17 s. */
    private static final long WINDOW_MILLIS = 86_400_000;
    private static final int LIMIT = 5_000;
    private static final int THREADS = 64;

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final List<Instance> instances = List.of(new Instance(), new Instance());

    @AfterEach
    void stop() {
        instances.forEach(Instance::close);
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "SLIDING_WINDOW", "TOKEN_BUCKET"})
    void sixtyFourThreadsOnTwoInstancesAreAdmittedExactlyTheLimitAndMostFromBatches(Algorithm algorithm)
            throws Exception {
        CounterRequest request = new CounterRequest("test:hot:" + algorithm, algorithm, LIMIT, WINDOW_MILLIS);
        AtomicInteger admitted = new AtomicInteger();
        long callsBefore = redis.calls("evalsha");
        try (BusyCpus busy = BusyCpus.start()) {
            Concurrently.forEachIndex(THREADS, 3 * LIMIT, i -> {
                if (Stores.decide(instances.get(i % 2).limiter, request).allowed()) {
                    admitted.incrementAndGet();
                }
            });
        }
        long calls = redis.calls("evalsha") - callsBefore;

        assertThat(admitted.get()).as("admitted by both").isLessThanOrEqualTo(LIMIT);
        assertThat(calls).as("Redis calls for %s decisions", 3 * LIMIT).isLessThan(3 * LIMIT / 5);
        awaitNoPermitHeld();
        // Every permit not used went back: one request at a time takes exactly what is left.
        assertThat(admitted.get() + drain(request)).isEqualTo(LIMIT);
    }

    @Test
    void permitsNotUsedGoBackOnceHeldTheLongestHold() {
        CounterRequest request = new CounterRequest("test:hot:idle", Algorithm.FIXED_WINDOW, LIMIT, WINDOW_MILLIS);
        Instance instance = instances.get(0);
        int admitted = hot(instance, request, 1_000);
        assertThat(instance.store.permitsHeld()).as("permits held once hot").isPositive();

        awaitNoPermitHeld();

        assertThat(LIMIT - admitted).isEqualTo(remainingInRedis(request));
    }

    @Test
    void aLoweredLimitAppliesAtOnceAndThePermitsTakenUnderTheOldOneAreNotSpent() {
        CounterRequest before = new CounterRequest("test:hot:lowered", Algorithm.FIXED_WINDOW, 1_000, WINDOW_MILLIS);
        int admitted = hot(instances.get(0), before, 300) + hot(instances.get(1), before, 300);
        assertThat(instances.get(0).store.permitsHeld() + instances.get(1).store.permitsHeld()).isPositive();

        CounterRequest lowered = new CounterRequest(before.key(), Algorithm.FIXED_WINDOW, 500, WINDOW_MILLIS);
        int afterwards = drain(lowered);

        assertThat(admitted).isEqualTo(600);
        assertThat(afterwards).as("admitted under the lowered limit").isZero();
        assertThat(instances.get(0).store.permitsHeld() + instances.get(1).store.permitsHeld()).isZero();
    }

    @Test
    void aLimitRaisedWhilePermitsAreOutAdmitsTheDifferenceExactly() {
        CounterRequest before = new CounterRequest("test:hot:raised", Algorithm.FIXED_WINDOW, 1_000, WINDOW_MILLIS);
        int admitted = hot(instances.get(0), before, 400);
        assertThat(instances.get(0).store.permitsHeld()).isPositive();

        CounterRequest raised = new CounterRequest(before.key(), Algorithm.FIXED_WINDOW, 1_500, WINDOW_MILLIS);

        assertThat(admitted + drain(raised)).isEqualTo(1_500);
    }

    /** Sends {@code requests} requests one after another to one instance, fast enough to make the counter hot. */
    private static int hot(Instance instance, CounterRequest request, int requests) {
        int admitted = 0;
        for (int i = 0; i < requests; i++) {
            if (Stores.decide(instance.limiter, request).allowed()) {
                admitted++;
            }
        }
        return admitted;
    }

    /**
     * Requests, to each instance in turn, until both have been refused for twice the longest hold: the number
     * admitted. Permits another instance gives back may come that long after a refusal.
     */
    private int drain(CounterRequest request) {
        int admitted = 0;
        long refusedSince = 0;
        for (int i = 0; ; i++) {
            if (Stores.decide(instances.get(i % 2).limiter, request).allowed()) {
                admitted++;
                refusedSince = 0;
            } else if (refusedSince == 0) {
                refusedSince = System.nanoTime();
            } else if (System.nanoTime() - refusedSince > 2 * DEFAULTS.maxHold().toNanos()) {
                return admitted;
            }
        }
    }

    private long remainingInRedis(CounterRequest request) {
        return Stores.decided(instances.get(0).redisStore.peek(List.of(request))).get(0).remaining();
    }

    private void awaitNoPermitHeld() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(instances)
                .allSatisfy(instance -> assertThat(instance.store.permitsHeld()).isZero()));
    }

    /**
     * One app instance: its own connection, the batching store, the near cache in front of it and the
     * upkeep, as the auto-configuration builds them.
     */
    private final class Instance implements AutoCloseable {

        final LimiterRedisConnection connection = Stores.connection(redis.template());
        final RedisRateLimitStore redisStore = new RedisRateLimitStore(connection);
        final BatchingRateLimitStore store;
        final RateLimitStore limiter;
        final BatchUpkeep upkeep = new BatchUpkeep();

        Instance() {
            redisStore.open(Duration.ofSeconds(1));
            store = new BatchingRateLimitStore(redisStore, request -> true, () -> 2, DEFAULTS.threshold(),
                    DEFAULTS.batchFor(), DEFAULTS.maxHold());
            NearCache denials = new NearCache(Stores.DEFAULTS.nearCache().maxEntries());
            redisStore.decisionsTo(store.shorteningDenials(denials::learn));
            limiter = new NearCacheRateLimitStore(store, denials);
            upkeep.keep(store);
            upkeep.start();
        }

        @Override
        public void close() {
            upkeep.stop();
            connection.destroy();
        }
    }

}
