package dev.ratelimit.interceptor.internal.store.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCacheRateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.testsupport.BusyCpus;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
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

    /** An instance holds up to a hundredth of it, 200 permits. */
    private static final int LIMIT = 20_000;
    private static final long WINDOW_MILLIS = 60_000;
    private static final int THREADS = 64;

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final List<Instance> instances = List.of(new Instance(), new Instance());

    @AfterEach
    void stop() {
        instances.forEach(Instance::close);
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "SLIDING_WINDOW"})
    void sixtyFourThreadsOnTwoInstancesAreAdmittedExactlyTheLimitAtATenthOfARedisCallEach(Algorithm algorithm)
            throws Exception {
        // A sliding window's count lightens as its window passes: the run starts with a window of its own.
        long window = algorithm == Algorithm.SLIDING_WINDOW ? startOfAWindow(20_000) : WINDOW_MILLIS;
        int limit = LIMIT;
        CounterRequest request = new CounterRequest("test:hot:" + algorithm, algorithm, limit, window);

        Burst plenty = burst(request, limit / 2);
        Burst past = burst(request, 2 * limit);
        plenty.report(algorithm);

        assertThat(plenty.admitted()).as("admitted while half is left").isEqualTo(limit / 2);
        assertThat(plenty.redisCalls()).as("Redis calls for %s admissions", plenty.admitted())
                .isLessThanOrEqualTo(plenty.admitted() / 10);
        assertThat(plenty.permitsTaken()).as("permits taken for %s admissions: batches of what is used",
                plenty.admitted()).isLessThanOrEqualTo(2L * plenty.admitted());
        assertThat(plenty.admitted() + past.admitted()).as("admitted by both").isLessThanOrEqualTo(limit);
        awaitNoPermitHeld();
        // Every permit not used went back: one request at a time takes exactly what is left.
        assertThat(plenty.admitted() + past.admitted() + drain(request)).isEqualTo(limit);
    }

    @Test
    void aTokenBucketAdmitsNoMoreThanItsBurstAndWhatItEarnsMostlyFromBatches() throws Exception {
        CounterRequest request = new CounterRequest("test:hot:bucket", Algorithm.TOKEN_BUCKET, LIMIT, WINDOW_MILLIS);
        long startedAt = System.nanoTime();

        Burst plenty = burst(request, LIMIT / 2);
        Burst past = burst(request, 2 * LIMIT);
        plenty.report(Algorithm.TOKEN_BUCKET);

        long earned = (System.nanoTime() - startedAt) / 1_000_000 * LIMIT / WINDOW_MILLIS + 1;
        assertThat(plenty.admitted()).as("admitted while half is left").isEqualTo(LIMIT / 2);
        assertThat(plenty.redisCalls()).as("Redis calls for %s admissions", plenty.admitted())
                .isLessThanOrEqualTo(plenty.admitted() / 10);
        assertThat(plenty.admitted() + past.admitted()).as("admitted by both")
                .isBetween(LIMIT, (int) (LIMIT + earned));
    }

    private Burst burst(CounterRequest request, int requests) throws Exception {
        AtomicInteger admitted = new AtomicInteger();
        long callsBefore = redis.calls("evalsha");
        long permitsBefore = permitsTaken();
        try (BusyCpus busy = BusyCpus.start()) {
            Concurrently.forEachIndex(THREADS, requests, i -> {
                if (Stores.decide(instances.get(i % 2).limiter, request).allowed()) {
                    admitted.incrementAndGet();
                }
            });
        }
        return new Burst(admitted.get(), redis.calls("evalsha") - callsBefore, permitsTaken() - permitsBefore);
    }

    private long permitsTaken() {
        return instances.stream().mapToLong(instance -> (Long) ((Map<?, ?>) instance.store.describe().details()
                .get("hotKeys")).get("permitsTaken")).sum();
    }

    private record Burst(int admitted, long redisCalls, long permitsTaken) {

        void report(Algorithm algorithm) {
            System.out.printf("FIGURES batching store, %s: %d admitted by %d threads on two instances, %d script calls "
                    + "(%.3f an admission), %d permits taken%n", algorithm, admitted, THREADS, redisCalls,
                    (double) redisCalls / admitted, permitsTaken);
        }
    }

    /** Waits for Redis' clock to enter a new window of {@code windowMillis}, aligned as a sliding window's are. */
    private long startOfAWindow(long windowMillis) {
        await().atMost(Duration.ofMillis(windowMillis * 2)).pollInterval(Duration.ofMillis(20))
                .until(() -> redisMillis() % windowMillis < 200);
        return windowMillis;
    }

    private long redisMillis() {
        List<String> time = redis.commands().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
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

    /**
     * The limit advisor's demand: a hot fixed window's admissions tell every count of the window once, in order,
     * whether Redis or a permit of the instance's batch admitted them; the permits still held are no count told.
     * A batch held past the longest hold (a pause of this process) goes back while later requests go on, and its
     * counts may then be told again: then only that each admission tells a count and no more than it and what went
     * back counted.
     */
    @Test
    void aHotCountersAdmissionsTellEachCountOnceWhetherRedisOrAPermitAdmitsThem() {
        CounterRequest request = new CounterRequest("test:hot:demand", Algorithm.FIXED_WINDOW, LIMIT, WINDOW_MILLIS);
        Instance instance = instances.get(0);
        List<Long> demands = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            demands.add(Stores.decide(instance.limiter, request).demand());
        }
        assertThat(instance.store.permitsHeld()).as("permits held once hot").isPositive();
        long givenBack = (Long) ((Map<?, ?>) instance.store.describe().details().get("hotKeys")).get("permitsGivenBack");
        if (givenBack == 0) {
            assertThat(demands).isEqualTo(LongStream.rangeClosed(1, 1_000).boxed().toList());
        } else {
            assertThat(demands).hasSize(1_000).allSatisfy(n -> assertThat(n).isBetween(1L, 1_000 + givenBack));
        }
    }

    @Test
    void aLoweredLimitAppliesAtOnceAndThePermitsTakenUnderTheOldOneAreNotSpent() {
        CounterRequest before = new CounterRequest("test:hot:lowered", Algorithm.FIXED_WINDOW, 12_000, WINDOW_MILLIS);
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
        CounterRequest before = new CounterRequest("test:hot:raised", Algorithm.FIXED_WINDOW, 12_000, WINDOW_MILLIS);
        int admitted = hot(instances.get(0), before, 400);
        assertThat(instances.get(0).store.permitsHeld()).isPositive();

        CounterRequest raised = new CounterRequest(before.key(), Algorithm.FIXED_WINDOW, 18_000, WINDOW_MILLIS);

        assertThat(admitted + drain(raised)).isEqualTo(18_000);
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
            } else if (System.nanoTime() - refusedSince > 2 * ShippedDefaults.BATCH_MAX_HOLD.toNanos()) {
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

        final LimiterRedisConnection connection = Stores.connection(redis.port());
        final RedisRateLimitStore redisStore = new RedisRateLimitStore(connection);
        final BatchingRateLimitStore store;
        final RateLimitStore limiter;
        final HeldPermits upkeep = new HeldPermits();

        Instance() {
            redisStore.open(Duration.ofSeconds(1));
            store = new BatchingRateLimitStore(redisStore, () -> 2, ShippedDefaults.HOT_THRESHOLD,
                    ShippedDefaults.BATCH_FOR, ShippedDefaults.BATCH_MAX_HOLD);
            NearCache denials = new NearCache(ShippedDefaults.NEAR_CACHE_ENTRIES);
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
