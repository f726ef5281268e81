package dev.ratelimit.interceptor.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Batch;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recorder's memory and Redis' stay bounded whatever the number of clients: 100,000 clients, each refused
 * by Redis once and then twice without it, on one instance whose cap of windows refused is the shipped near cache's;
 * the reaches are exact whatever the number, the windows beyond the cap are not kept, and a hot counter's batch is
 * demand as it is taken.
 */
class DemandRecorderTest {

    private static final RuleId RULE = RuleId.of("shop", "OrderController.search");
    private static final RedisKeys KEYS = new RedisKeys("ratelimit");
    private static final int CLIENTS = 100_000;
    private static final int CAP = 10_000;
    private static final long LIMIT = 2;

    private static RedisServerProcess redis;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private static DemandStore redisStore() {
        return new RedisDemandStore(redis.connection().backgroundWork(), KEYS);
    }

    @Test
    void aHundredThousandClientsCostBoundedMemoryAndTheirReachesAddUpExactly() {
        DemandRecorder recorder = new DemandRecorder(redisStore(), KEYS, Duration.ofSeconds(5),
                CAP, Clock.systemUTC());
        LimitDefinition limit = new LimitDefinition(RULE, LIMIT, 60, Dimension.USER, Algorithm.FIXED_WINDOW, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
        long now = System.currentTimeMillis();
        for (int client = 0; client < CLIENTS; client++) {
            String key = KEYS.counter(RULE, Dimension.USER, Algorithm.FIXED_WINDOW, "c" + client);
            recorder.counted(limit, key, new Decision(true, LIMIT, 1, 0, 60_000, now, Batch.NONE, 1));
            recorder.counted(limit, key, new Decision(true, LIMIT, 0, 60_000, 60_000, now, Batch.NONE, 2));
            recorder.counted(limit, key, new Decision(false, LIMIT, 0, 60_000, 60_000, now, Batch.NONE, 3));
            recorder.counted(limit, key, new Decision(false, LIMIT, 0, 60_000, 60_000, 0)); // the near cache's
            recorder.counted(limit, key, new Decision(false, LIMIT, 0, 60_000, 60_000, 0));
        }
        assertThat(recorder.refusedWindowsHeld()).as("windows refused, kept").isEqualTo(CAP);

        long before = DemandGranularity.TEN_MINUTES.bucketStart(Instant.now().getEpochSecond());
        recorder.flush();
        long after = DemandGranularity.TEN_MINUTES.bucketStart(Instant.now().getEpochSecond());
        LimitAdvice advice = new LimitAdvisor(redisStore())
                .advise(RULE, LIMIT, Duration.ofHours(1), Instant.now());
        assertThat(advice.clients()).isEqualTo(CLIENTS);
        assertThat(advice.refusedClients()).as("every client's third request").isEqualTo(CLIENTS);
        assertThat(advice.requests()).as("three each through Redis, two more for the windows kept")
                .isEqualTo(3L * CLIENTS + 2L * CAP);
        long fields = 0;
        for (long bucket : before == after ? new long[] {before} : new long[] {before, after}) {
            fields += redis.commands().hlen(KEYS.demandBucket(RULE, DemandGranularity.TEN_MINUTES.label(), bucket)
                    + ":refused");
        }
        assertThat(fields).as("a count and a highest per window kept").isEqualTo(2L * CAP);
    }

    /** The same decisions through the Redis store and the in-process one give the same advice at every limit. */
    @Test
    void theInProcessStoreAdvisesAsRedisDoes() {
        RuleId rule = RuleId.of("shop", "OrderController.both");
        LimitDefinition limit = new LimitDefinition(rule, 5, 60, Dimension.USER, Algorithm.FIXED_WINDOW, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
        List<DemandStore> stores = List.of(redisStore(), new InProcessDemandStore(Clock.systemUTC()));
        long now = System.currentTimeMillis();
        for (DemandStore store : stores) {
            DemandRecorder recorder = new DemandRecorder(store, KEYS, Duration.ofSeconds(5), CAP, Clock.systemUTC());
            for (int client = 1; client <= 10; client++) {
                String key = KEYS.counter(rule, Dimension.USER, Algorithm.FIXED_WINDOW, "c" + client);
                for (long n = 1; n <= Math.min(client, 6); n++) {
                    recorder.counted(limit, key, new Decision(n <= 5, 5, Math.max(0, 5 - n), 0, 60_000, now,
                            Batch.NONE, n));
                }
                for (int more = 6; more < client; more++) {
                    recorder.counted(limit, key, new Decision(false, 5, 0, 60_000, 60_000, 0));
                }
            }
            recorder.flush();
        }
        for (long candidate = 1; candidate <= 11; candidate++) {
            LimitAdvice fromRedis = new LimitAdvisor(stores.get(0)).advise(rule, candidate, Duration.ofHours(1),
                    Instant.now());
            LimitAdvice inProcess = new LimitAdvisor(stores.get(1)).advise(rule, candidate, Duration.ofHours(1),
                    Instant.now());
            assertThat(inProcess).as("at %d", candidate).isEqualTo(fromRedis);
            long refused = 0;
            for (long client = 1; client <= 10; client++) {
                refused += Math.max(0, client - candidate);
            }
            assertThat(inProcess.refusedRequests()).as("at %d", candidate).isEqualTo(refused);
        }
    }

    /**
     * A hot counter: the request that took a batch of 10 permits is the window's first, and two permits admit the
     * second and third requests; the seven left unused are no demand.
     */
    @Test
    void aHotCountersPermitsAreDemandAsTheyAreUsed() {
        RuleId hot = RuleId.of("shop", "OrderController.hot");
        DemandRecorder recorder = new DemandRecorder(redisStore(), KEYS, Duration.ofSeconds(5),
                CAP, Clock.systemUTC());
        LimitDefinition limit = new LimitDefinition(hot, 1_000, 60, Dimension.GLOBAL, Algorithm.FIXED_WINDOW, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
        String key = KEYS.counter(hot, Dimension.GLOBAL, Algorithm.FIXED_WINDOW, "all");
        long now = System.currentTimeMillis();
        recorder.counted(limit, key, new Decision(true, 1_000, 989, 0, 60_000, now, new Batch(10, now, 200), 1));
        recorder.counted(limit, key, new Decision(true, 1_000, 989, 0, 60_000, now, Batch.NONE, 2)); // permits
        recorder.counted(limit, key, new Decision(true, 1_000, 989, 0, 60_000, now, Batch.NONE, 3));
        recorder.flush();

        LimitAdvice advice = new LimitAdvisor(redisStore())
                .advise(hot, 1, Duration.ofHours(1), Instant.now());
        assertThat(advice.requests()).isEqualTo(3);
        assertThat(advice.highest()).isEqualTo(3);
        assertThat(advice.refusedRequests()).isEqualTo(2);
    }

    /**
     * A refund ({@code countWhen}) takes back the counts it undid, which the window's next requests are told again:
     * client a's success is refunded while a failure of a is counted after it, and again after a flush; client b's
     * success is refunded after 96 denials (past the exact counts), which undoes them too, and b asks twice more. What
     * stays is each client's requests that stay counted: a reached 2, b 6, through Redis and in process alike.
     */
    @Test
    void aRefundTakesBackTheCountsItUndid() {
        for (DemandStore store : List.of(redisStore(), new InProcessDemandStore(Clock.systemUTC()))) {
            RuleId login = RuleId.of("shop", store.getClass().getSimpleName() + ".login");
            LimitDefinition limit = limit(login, Algorithm.FIXED_WINDOW, 60);
            DemandRecorder recorder = new DemandRecorder(store, KEYS, Duration.ofSeconds(5), CAP, Clock.systemUTC());
            String a = KEYS.counter(login, Dimension.USER, Algorithm.FIXED_WINDOW, "a");
            String b = KEYS.counter(login, Dimension.USER, Algorithm.FIXED_WINDOW, "b");
            counted(recorder, limit, a, 1, 2);
            recorder.refunded(limit, a, 1, 2);
            counted(recorder, limit, a, 2, 3);
            counted(recorder, limit, b, 1, 100);
            recorder.flush();
            recorder.refunded(limit, a, 2, 3);
            recorder.refunded(limit, b, 4, 100);
            counted(recorder, limit, b, 5, 6);
            recorder.flush();

            LimitAdvisor advisor = new LimitAdvisor(store);
            for (long candidate = 1; candidate <= 7; candidate++) {
                LimitAdvice advice = advisor.advise(login, candidate, Duration.ofHours(1), Instant.now());
                assertThat(advice.clients()).as("%s", store).isEqualTo(2);
                assertThat(advice.requests()).isEqualTo(8);
                assertThat(advice.highest()).isEqualTo(6);
                assertThat(advice.refusedRequests()).as("requests at %d", candidate)
                        .isEqualTo(Math.max(0, 2 - candidate) + Math.max(0, 6 - candidate));
                assertThat(advice.refusedClients()).as("clients at %d", candidate)
                        .isEqualTo((2 > candidate ? 1 : 0) + (6 > candidate ? 1 : 0));
            }
        }
    }

    /** The client's counts {@code from} to {@code to} told by Redis, each a request of cost 1. */
    private static void counted(DemandRecorder recorder, LimitDefinition limit, String key, long from, long to) {
        long now = System.currentTimeMillis();
        for (long n = from; n <= to; n++) {
            boolean allowed = n <= limit.count();
            recorder.counted(limit, key, new Decision(allowed, limit.count(), Math.max(0, limit.count() - n), 0,
                    60_000, now, Batch.NONE, n));
        }
    }

    /**
     * Every algorithm and kind counts its requests per window of the rule's length, admitted and refused, over two
     * instances, through Redis and in process alike; a window shorter than a granularity's shortest is joined into it.
     */
    @Test
    void everyAlgorithmCountsItsRequestsPerWindowOfItsLength() {
        long base = Math.floorDiv(System.currentTimeMillis(), 60_000) * 60 - 180;
        Clock later = Clock.fixed(Instant.ofEpochSecond(base + 125), java.time.ZoneOffset.UTC);
        for (DemandStore store : List.of(redisStore(), new InProcessDemandStore(Clock.systemUTC()))) {
            for (Algorithm algorithm : Algorithm.values()) {
                RuleId minute = RuleId.of("shop", store.getClass().getSimpleName() + "." + algorithm + ".minute");
                RuleId second = RuleId.of("shop", store.getClass().getSimpleName() + "." + algorithm + ".second");
                DemandRecorder one = new DemandRecorder(store, KEYS, Duration.ofSeconds(5), CAP, later);
                DemandRecorder other = new DemandRecorder(store, KEYS, Duration.ofSeconds(5), CAP, later);
                requests(one, minute, algorithm, 60, base + 1, 3);
                requests(one, minute, algorithm, 60, base + 59, 2);
                requests(other, minute, algorithm, 60, base + 30, 4);
                requests(other, minute, algorithm, 60, base + 61, 5);
                // a refusal without the store: in the instance's window
                one.counted(limit(minute, algorithm, 60), "c", new Decision(false, 5, 0, 1_000, 1_000, 0));
                requests(one, second, algorithm, 1, base + 1, 2);
                requests(other, second, algorithm, 1, base + 6, 3);
                one.flush();
                other.flush();

                LimitAdvisor advisor = new LimitAdvisor(store);
                assertThat(advisor.windows(minute, Duration.ofHours(1), Instant.now()))
                        .as("%s, %s", store, algorithm).isEqualTo(new RequestWindows(15, 9, List.of(
                                window(base, 60, 9), window(base + 60, 60, 5), window(base + 120, 60, 1))));
                assertThat(advisor.windows(second, Duration.ofHours(1), Instant.now()).windows())
                        .as("windows of 1 s kept as 5 s").containsExactly(window(base, 5, 2), window(base + 5, 5, 3));
                assertThat(advisor.windows(second, Duration.ofDays(3), Instant.now()).windows())
                        .as("and as 30 s over the week").containsExactly(window(base, 30, 5));
            }
        }
    }

    /**
     * A global counter: every request a new count of its window. Five windows reaching 1,000 to 1,004 are written as
     * a few runs of counts (not a field per count), and every limit reads what it would have refused exactly.
     */
    @Test
    void aCounterReachingEveryCountIsWrittenAsRunsAndReadExactly() {
        RuleId global = RuleId.of("shop", "OrderController.global");
        LimitDefinition limit = new LimitDefinition(global, 5_000, 1, Dimension.GLOBAL, Algorithm.FIXED_WINDOW, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
        DemandRecorder recorder = new DemandRecorder(redisStore(), KEYS, Duration.ofSeconds(5), CAP, Clock.systemUTC());
        String key = KEYS.counter(global, Dimension.GLOBAL, Algorithm.FIXED_WINDOW, "all");
        long now = System.currentTimeMillis();
        for (int window = 0; window < 5; window++) {
            for (long n = 1; n <= 1_000 + window; n++) {
                recorder.counted(limit, key, new Decision(true, 5_000, 5_000 - n, 0, 1_000, now, Batch.NONE, n));
            }
        }
        long before = DemandGranularity.TEN_MINUTES.bucketStart(Instant.now().getEpochSecond());
        recorder.flush();
        long after = DemandGranularity.TEN_MINUTES.bucketStart(Instant.now().getEpochSecond());

        long fields = 0;
        for (long bucket : before == after ? new long[] {before} : new long[] {before, after}) {
            fields += redis.commands().hlen(KEYS.demandBucket(global, DemandGranularity.TEN_MINUTES.label(), bucket));
        }
        assertThat(fields).as("one run per count the windows stopped at").isEqualTo(5);
        LimitAdvisor advisor = new LimitAdvisor(redisStore());
        for (long candidate : new long[] {1, 500, 999, 1_000, 1_002, 1_004, 1_005}) {
            long refused = 0;
            long clients = 0;
            for (int window = 0; window < 5; window++) {
                refused += Math.max(0, 1_000 + window - candidate);
                clients += 1_000 + window > candidate ? 1 : 0;
            }
            LimitAdvice advice = advisor.advise(global, candidate, Duration.ofHours(1), Instant.now());
            assertThat(advice.refusedRequests()).as("requests at %d", candidate).isEqualTo(refused);
            assertThat(advice.refusedClients()).as("windows at %d", candidate).isEqualTo(clients);
            assertThat(advice.requests()).isEqualTo(5_010);
        }
    }

    private static void requests(DemandRecorder recorder, RuleId rule, Algorithm algorithm, long windowSeconds,
                                 long epochSecond, int requests) {
        for (int request = 0; request < requests; request++) {
            recorder.counted(limit(rule, algorithm, windowSeconds), "c", new Decision(request % 2 == 0, 5, 0, 0,
                    1_000, epochSecond * 1_000 + request));
        }
    }

    private static LimitDefinition limit(RuleId rule, Algorithm algorithm, long windowSeconds) {
        return new LimitDefinition(rule, 5, windowSeconds, Dimension.USER, algorithm, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
    }

    private static RequestWindows.Window window(long start, long length, long requests) {
        return new RequestWindows.Window(Instant.ofEpochSecond(start), Duration.ofSeconds(length), requests);
    }
}
