package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one contract of both counter stores, for every algorithm: the Redis scripts and the in-process
 * store are fed the same explicit clock, so they must give the same decisions for the same times.
 */
class RateLimitStoreContractTest {

    /** A multiple of every window below, so windows aligned to the epoch start here. */
    private static final long T0 = 1_700_000_000_000L;
    /** The limit of the boundary tests: 10 per second. */
    private static final int LIMIT = 10;
    private static final long WINDOW = 1_000;
    /** The lease of the concurrency tests. */
    private static final long LEASE = 10_000;
    /** The penalty of the tests of pending units: 60 s, doubling up to 240 s. */
    private static final Penalty BLOCK = new Penalty(60_000, 240_000);

    private static RedisServerProcess redis;

    private ManualClock clock;

    /** The in-process store and the Redis store. */
    enum StoreKind { MEMORY, REDIS }

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void freshState() {
        redis.commands().flushall();
        clock = new ManualClock(T0);
    }

    /** Refunds and settlements a test sent without waiting land before the next test's flush, not on its keys. */
    @AfterEach
    void answered() {
        redis.awaitSent();
    }

    static Stream<Arguments> everyStoreAndAlgorithm() {
        return Stream.of(StoreKind.values()).flatMap(kind -> Stream.of(Algorithm.values())
                .filter(algorithm -> algorithm != Algorithm.CONCURRENCY)
                .map(algorithm -> Arguments.of(kind, algorithm)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void admitsExactlyTheLimitToSixtyFourConcurrentClients(StoreKind kind, Algorithm algorithm) throws Exception {
        RateLimitStore store = store(kind);

        int admitted = ConcurrentClients.admitted(64, 5,
                thread -> acquire(store, "race", algorithm, 50, 60_000).allowed());

        assertThat(admitted).isEqualTo(50);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aRequestSentAtTheAdvertisedTimeIsAdmittedAndOneMillisecondEarlierIsNot(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Random random = new Random(42);
        for (int round = 0; round < 40; round++) {
            clock.advance(random.nextInt(3_000));
            Decision last;
            do {
                last = acquire(store, "waiter", algorithm, 5, 2_000);
            } while (last.remaining() > 0);
            long wait = last.retryAfterMillis();
            assertThat(wait).as("round %d", round).isPositive();

            clock.advance(wait - 1);
            assertThat(acquire(store, "waiter", algorithm, 5, 2_000).allowed()).as("round %d, 1 ms early", round).isFalse();
            clock.advance(1);
            assertThat(acquire(store, "waiter", algorithm, 5, 2_000).allowed()).as("round %d, on time", round).isTrue();
        }
    }

    /**
     * Requests of cost 3 against 10 per 2 s, at random moments: a denied heavy request takes nothing, and
     * one sent at the wait it was told is admitted, one sent a millisecond earlier is not.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aHeavyRequestSentAtTheAdvertisedTimeIsAdmittedAndOneMillisecondEarlierIsNot(StoreKind kind,
                                                                                     Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Random random = new Random(7);
        for (int round = 0; round < 40; round++) {
            clock.advance(random.nextInt(3_000));
            Decision last;
            do {
                last = heavy(store, algorithm);
            } while (last.allowed());
            long remaining = last.remaining();
            assertThat(remaining).as("round %d: units left but too few", round).isLessThan(3);
            assertThat(heavy(store, algorithm).remaining()).as("round %d: the denial took nothing", round)
                    .isEqualTo(remaining);
            long wait = last.retryAfterMillis();
            assertThat(wait).as("round %d", round).isPositive();

            clock.advance(wait - 1);
            assertThat(heavy(store, algorithm).allowed()).as("round %d, 1 ms early", round).isFalse();
            clock.advance(1);
            assertThat(heavy(store, algorithm).allowed()).as("round %d, on time", round).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aRefundGivesTheUnitBackWithinItsWindow(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        List<Decision> taken = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            taken.add(acquire(store, "login", algorithm, 3, 10_000));
            clock.advance(100);
        }
        assertThat(taken).allMatch(Decision::allowed);
        assertThat(acquire(store, "login", algorithm, 3, 10_000).allowed()).as("the limit is reached").isFalse();

        refund(store, "login", algorithm, 3, 10_000, taken.get(1));

        assertThat(acquire(store, "login", algorithm, 3, 10_000).allowed()).as("the unit given back").isTrue();
        assertThat(acquire(store, "login", algorithm, 3, 10_000).allowed()).as("and only that one").isFalse();
    }

    /**
     * A fixed window's refund tells the counts it undid, which the window's next requests are told again (the limit
     * advisor takes them back): 3 admitted and 2 denied, the second admission given back: the count goes from 5 to 2,
     * and the next request is told 3. A refund once its window is over undoes nothing and tells nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aFixedWindowsRefundTellsTheCountsItUndid(StoreKind kind) throws Exception {
        RateLimitStore store = store(kind);
        CounterRequest login = new CounterRequest("undone", Algorithm.FIXED_WINDOW, 3, 10_000);
        List<Decision> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            taken.add(Stores.decide(store, login));
        }
        assertThat(taken).extracting(Decision::demand).containsExactly(1L, 2L, 3L, 4L, 5L);
        CompletableFuture<long[]> undone = new CompletableFuture<>();
        store.refund(List.of(new Refund(login, taken.get(1).decidedAt(),
                (above, upTo) -> undone.complete(new long[] {above, upTo}))));
        assertThat(undone.get(10, TimeUnit.SECONDS)).containsExactly(2, 5);
        assertThat(Stores.decide(store, login).demand()).as("the next request").isEqualTo(3);

        clock.advance(10_000);
        Decision next = Stores.decide(store, login);
        AtomicInteger toldLate = new AtomicInteger();
        AtomicInteger toldNow = new AtomicInteger();
        store.refund(List.of(new Refund(login, taken.get(0).decidedAt(), (above, upTo) -> toldLate.incrementAndGet())));
        store.refund(List.of(new Refund(login, next.decidedAt(), (above, upTo) -> toldNow.incrementAndGet())));
        // Redis answers the two in the order they were sent.
        Awaitility.await("the refund of this window").atMost(Duration.ofSeconds(10)).until(() -> toldNow.get() > 0);
        assertThat(toldLate).as("the refund of the window that ended").hasValue(0);
        assertThat(toldNow).hasValue(1);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aRefundAfterItsWindowEndedChangesNothing(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Decision old = acquire(store, "late", algorithm, 3, 10_000);
        // A sliding window's request weighs until the end of the next fixed window.
        clock.advance(algorithm == Algorithm.SLIDING_WINDOW ? 20_000 : 10_000);
        for (int i = 0; i < 3; i++) {
            assertThat(acquire(store, "late", algorithm, 3, 10_000).allowed()).as("request %d of the next window", i).isTrue();
        }

        refund(store, "late", algorithm, 3, 10_000, old);

        assertThat(acquire(store, "late", algorithm, 3, 10_000).allowed()).isFalse();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void clientsThatGiveBackAtOnceAreNeverDenied(StoreKind kind, Algorithm algorithm) throws Exception {
        RateLimitStore store = store(kind);

        // 32 clients hold at most 32 of the 50 units at any moment: without refunds 50 would be admitted.
        int admitted = ConcurrentClients.admitted(32, 10, thread -> {
            Decision decision = acquire(store, "refunded", algorithm, 50, 60_000);
            if (decision.allowed()) {
                refund(store, "refunded", algorithm, 50, 60_000, decision);
            }
            return decision.allowed();
        });

        assertThat(admitted).as("every unit came back").isEqualTo(32 * 10);
        assertThat(admittedOf(51, () -> acquire(store, "refunded", algorithm, 50, 60_000)))
                .as("the whole limit is there again").isEqualTo(50);
    }

    /**
     * A peek before each request, on random costs and moments: it tells what the request is then told
     * (admitted or not, the units free before it, the same wait when denied) and changes nothing: the
     * counter peeked at decides exactly as one never peeked at.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aPeekTellsWhatTheNextRequestIsToldAndChangesNothing(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Random random = new Random(11);
        for (int i = 0; i < 300; i++) {
            clock.advance(random.nextInt(4) == 0 ? random.nextInt(1_500) : random.nextInt(30));
            long cost = 1 + random.nextInt(3);
            Decision peeked = Stores.decided(store.peek(List.of(weighed("peeked", algorithm, cost)))).get(0);
            Decision acquired = Stores.decide(store, weighed("peeked", algorithm, cost));
            Decision unpeeked = Stores.decide(store, weighed("unpeeked", algorithm, cost));

            assertThat(acquired).as("event %d", i).isEqualTo(unpeeked);
            assertThat(peeked.allowed()).as("event %d", i).isEqualTo(acquired.allowed());
            assertThat(peeked.remaining()).as("event %d: units free before the request", i)
                    .isEqualTo(acquired.allowed() ? acquired.remaining() + cost : acquired.remaining());
            if (!acquired.allowed()) {
                assertThat(peeked.retryAfterMillis()).as("event %d", i).isEqualTo(acquired.retryAfterMillis());
            } else {
                assertThat(peeked.retryAfterMillis()).isZero();
            }
        }
    }

    static Stream<StoreKind> everyStore() {
        return Stream.of(StoreKind.values());
    }

    /**
     * A daily quota in New York across both daylight-saving changes of 2026: 8 March lasts 23 hours and
     * 1 November 25, and the quota resets at local midnight each time, to the millisecond.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aDailyQuotaResetsAtLocalMidnightOnDaysOf23And25Hours(StoreKind kind) {
        RateLimitStore store = store(kind);
        ZoneId newYork = ZoneId.of("America/New_York");
        for (LocalDate day : List.of(LocalDate.of(2026, 3, 8), LocalDate.of(2026, 11, 1))) {
            long start = day.atStartOfDay(newYork).toInstant().toEpochMilli();
            long end = day.plusDays(1).atStartOfDay(newYork).toInstant().toEpochMilli();
            clock.set(start);
            assertThat(quota(store, QuotaPeriod.DAY, newYork).allowed()).isTrue();
            assertThat(quota(store, QuotaPeriod.DAY, newYork).allowed()).isTrue();
            Decision denied = quota(store, QuotaPeriod.DAY, newYork);
            assertThat(denied.allowed()).isFalse();
            assertThat(denied.retryAfterMillis()).as("the day %s lasts", day).isEqualTo(end - start)
                    .isIn(23 * 3_600_000L, 25 * 3_600_000L);

            clock.set(end - 1);
            assertThat(quota(store, QuotaPeriod.DAY, newYork).retryAfterMillis()).as("1 ms before midnight").isEqualTo(1);
            clock.set(end);
            assertThat(quota(store, QuotaPeriod.DAY, newYork).allowed()).as("at local midnight").isTrue();
        }
    }

    /** A monthly quota resets on the 1st at midnight, after months of 31, 28 and 31 days and a year's end. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aMonthlyQuotaResetsOnTheFirstAtMidnight(StoreKind kind) {
        RateLimitStore store = store(kind);
        ZoneId tokyo = ZoneId.of("Asia/Tokyo");
        for (LocalDate first : List.of(LocalDate.of(2026, 2, 1), LocalDate.of(2026, 3, 1), LocalDate.of(2027, 1, 1))) {
            long next = first.atStartOfDay(tokyo).toInstant().toEpochMilli();
            clock.set(next - 1);
            quota(store, QuotaPeriod.MONTH, tokyo);
            quota(store, QuotaPeriod.MONTH, tokyo);
            Decision denied = quota(store, QuotaPeriod.MONTH, tokyo);
            assertThat(denied.allowed()).as("the last millisecond of the month before %s", first).isFalse();
            assertThat(denied.retryAfterMillis()).isEqualTo(1);
            clock.set(next);
            assertThat(quota(store, QuotaPeriod.MONTH, tokyo).allowed()).as("on %s at midnight", first).isTrue();
            Decision second = quota(store, QuotaPeriod.MONTH, tokyo);
            long monthEnd = first.plusMonths(1).atStartOfDay(tokyo).toInstant().toEpochMilli();
            assertThat(second.resetMillis()).as("the month of %s ends", first).isEqualTo(monthEnd - next);

            store.refund(List.of(new Refund(quotaRequest(QuotaPeriod.MONTH, tokyo), second.decidedAt())));
            assertThat(quota(store, QuotaPeriod.MONTH, tokyo).allowed()).as("the unit given back").isTrue();
            assertThat(quota(store, QuotaPeriod.MONTH, tokyo).allowed()).isFalse();
        }
    }

    /**
     * 2 per 10 s with a 60 s block doubling up to 240 s: the block outlasts the window, the attempts made
     * during a block change nothing, a repeat offence doubles it, and 240 s free forgives.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aDeniedClientServesItsBlockAndRepeatOffencesDoubleIt(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Penalty penalty = new Penalty(60_000, 240_000);
        for (long expectedBlock : new long[] {60_000, 120_000, 240_000, 240_000}) {
            clock.advance(10_000); // a fresh window
            assertThat(penalized(store, algorithm, penalty).allowed()).isTrue();
            assertThat(penalized(store, algorithm, penalty).allowed()).isTrue();
            Decision denied = penalized(store, algorithm, penalty);
            assertThat(denied.allowed()).isFalse();
            assertThat(denied.retryAfterMillis()).as("the block").isEqualTo(expectedBlock);

            clock.advance(expectedBlock - 1);
            Decision stillBlocked = penalized(store, algorithm, penalty);
            assertThat(stillBlocked.allowed()).as("1 ms before the block ends, long after the window").isFalse();
            assertThat(stillBlocked.retryAfterMillis()).isEqualTo(1);
            clock.advance(1);
        }
        clock.advance(240_000 + 10_000);
        for (int i = 0; i < 2; i++) {
            assertThat(penalized(store, algorithm, penalty).allowed()).isTrue();
        }
        assertThat(penalized(store, algorithm, penalty).retryAfterMillis()).as("forgiven after 240 s free")
                .isEqualTo(60_000);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void sixtyFourClientsAreAdmittedTheLimitAndThenBlocked(StoreKind kind, Algorithm algorithm) throws Exception {
        RateLimitStore store = store(kind);
        Penalty penalty = new Penalty(3_600_000, 3_600_000);

        int admitted = ConcurrentClients.admitted(64, 5, thread -> Stores.decide(store,
                new CounterRequest("crowd", algorithm, 50, 1_000, 1, false, penalty)).allowed());

        assertThat(admitted).isEqualTo(50);
        clock.advance(2_000);
        Decision later = Stores.decide(store, new CounterRequest("crowd", algorithm, 50, 1_000, 1, false, penalty));
        assertThat(later.allowed()).as("two windows later, still blocked").isFalse();
        assertThat(later.retryAfterMillis()).isEqualTo(3_600_000 - 2_000);
    }

    /**
     * 3 per 10 s with a 60 s block, on a limit whose units stay pending until the response (countWhen): units
     * that requests still running hold start no block, whatever they deny, and such a denial tells the wait of
     * a request's end; a refund makes room at once. Once the responses kept them counted, the next denial is
     * final and blocks for the penalty, to the millisecond.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void onlyADenialThatNoPendingUnitCouldUndoStartsABlock(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        CounterRequest login = new CounterRequest("login", algorithm, 3, 10_000, 1, true, BLOCK);
        List<Decision> running = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            running.add(Stores.decide(store, login));
            clock.advance(10);
        }
        assertThat(running).allMatch(Decision::allowed);

        Decision whileRunning = Stores.decide(store, login);
        assertThat(whileRunning.allowed()).isFalse();
        assertThat(whileRunning.retryAfterMillis()).as("until a running request may end").isBetween(1L, 1_000L);
        store.refund(List.of(new Refund(login, running.get(0).decidedAt())));
        running.set(0, Stores.decide(store, login));
        assertThat(running.get(0).allowed()).as("not blocked: the unit given back is there").isTrue();

        store.settle(running.stream().map(taken -> new Settlement(login, taken.decidedAt(), 1)).toList());
        Decision counted = Stores.decide(store, login);
        assertThat(counted.allowed()).isFalse();
        assertThat(counted.retryAfterMillis()).as("the block").isEqualTo(BLOCK.firstBlockMillis());
        clock.advance(BLOCK.firstBlockMillis() - 1);
        assertThat(Stores.decide(store, login).retryAfterMillis()).as("1 ms before the block ends").isEqualTo(1);
    }

    /**
     * Pending units make a denial undecided only when their return would make room for the request: two
     * counted and one pending of 3 refuse a request of 2 for good; and units pending in a window that is over,
     * which no refund gives back any more, undo nothing.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void pendingUnitsThatCouldNotMakeRoomUndoNothing(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        CounterRequest one = new CounterRequest("heavy", algorithm, 3, 10_000, 1, true, BLOCK);
        CounterRequest two = one.withCost(2);
        List<Decision> counted = List.of(Stores.decide(store, one), Stores.decide(store, one));
        store.settle(counted.stream().map(taken -> new Settlement(one, taken.decidedAt(), 1)).toList());
        assertThat(Stores.decide(store, one).allowed()).as("the third unit, pending").isTrue();

        assertThat(Stores.decide(store, two).retryAfterMillis()).as("2 more never fit beside 2 counted")
                .isEqualTo(BLOCK.firstBlockMillis());

        CounterRequest late = new CounterRequest("late", algorithm, 3, 10_000, 1, true, BLOCK);
        assertThat(Stores.decide(store, late).allowed()).as("a request that runs past its window").isTrue();
        // A sliding window's request weighs until the end of the next fixed window.
        clock.advance(algorithm == Algorithm.SLIDING_WINDOW ? 20_000 : 10_000);
        List<Decision> next = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            next.add(Stores.decide(store, late));
        }
        assertThat(next).allMatch(Decision::allowed);
        store.settle(next.stream().map(taken -> new Settlement(late, taken.decidedAt(), 1)).toList());
        assertThat(Stores.decide(store, late).retryAfterMillis()).as("the old window's unit gives nothing back")
                .isEqualTo(BLOCK.firstBlockMillis());
    }

    /**
     * 10 units per second with a 60 s block, estimates of 4 settled after the response: estimates still running
     * start no block; what the responses said they used is counted, and the denial it causes blocks.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndSettlingAlgorithm")
    void estimatesStillRunningStartNoBlockAndWhatTheyUsedDoes(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        CounterRequest estimate = CounterRequest.settled("spent", algorithm, LIMIT, WINDOW, 4, BLOCK);
        List<Decision> running = List.of(Stores.decide(store, estimate), Stores.decide(store, estimate));
        Decision whileRunning = Stores.decide(store, estimate);
        assertThat(whileRunning.allowed()).isFalse();
        assertThat(whileRunning.retryAfterMillis()).as("until a running request may end").isBetween(1L, 1_000L);

        store.settle(running.stream().map(taken -> new Settlement(estimate, taken.decidedAt(), 3)).toList());
        Decision last = Stores.decide(store, estimate);
        assertThat(last.allowed()).as("6 used, 4 fit").isTrue();
        assertThat(Stores.decide(store, estimate).retryAfterMillis()).as("an estimate running").isBetween(1L, 1_000L);
        store.settle(List.of(new Settlement(estimate, last.decidedAt(), 4)));
        assertThat(Stores.decide(store, estimate).retryAfterMillis()).as("10 used").isEqualTo(BLOCK.firstBlockMillis());
    }

    /**
     * Random requests of limits with a penalty whose units stay pending (countWhen on every algorithm, estimates
     * on those that settle), refunded, confirmed or settled at random, at random moments: the in-process store
     * and the scripts, on both clients, decide alike every time, blocks and pending denials included.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void bothStoresDecideAlikeOnARandomTraceOfPendingUnits(Algorithm algorithm) {
        List<RateLimitStore> stores = everyStoreKind();
        Penalty penalty = new Penalty(1_000, 4_000);
        boolean settles = algorithm == Algorithm.FIXED_WINDOW || algorithm == Algorithm.TOKEN_BUCKET;
        Random random = new Random(41);
        List<CounterRequest> requests = new ArrayList<>();
        List<Decision> taken = new ArrayList<>();
        Tally tally = new Tally();
        for (int i = 0; i < 3_000; i++) {
            advanceInBursts(random, 100, 1_500);
            int action = random.nextInt(10);
            if (action < 6 || requests.isEmpty()) {
                CounterRequest request = settles && random.nextBoolean()
                        ? CounterRequest.settled("estimated", algorithm, 6, 2_000, 1 + random.nextInt(3), penalty)
                        : new CounterRequest("counted", algorithm, 4, 2_000, 1 + random.nextInt(2), true, penalty);
                boolean peek = action == 5;
                Decision decision = alike(stores, request, peek, i);
                if (tally.add(decision) && !peek) {
                    requests.add(request);
                    taken.add(decision);
                }
                continue;
            }
            int ended = random.nextInt(requests.size());
            CounterRequest request = requests.remove(ended);
            long reservedAt = taken.remove(ended).decidedAt();
            long units = request.settled() ? random.nextInt(2 * (int) request.cost() + 1)
                    : action < 8 ? 0 : request.cost();
            onEachStore(stores, request, (store, asked) -> {
                if (units == 0 && !asked.settled()) {
                    store.refund(List.of(new Refund(asked, reservedAt)));
                } else {
                    store.settle(List.of(new Settlement(asked, reservedAt, units)));
                }
            });
        }
        tally.assertBoth(300);
    }

    /**
     * One request opens the windows, then a burst just before and just after the boundary: the fixed
     * window admits nearly twice its limit within two milliseconds, the others at most the limit.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void aBurstAcrossTheWindowBoundary(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        assertThat(acquire(store, "edge", algorithm, LIMIT, WINDOW).allowed()).isTrue();

        clock.set(T0 + WINDOW - 1);
        int before = admittedOf(LIMIT, () -> acquire(store, "edge", algorithm, LIMIT, WINDOW));
        clock.set(T0 + WINDOW);
        int after = admittedOf(LIMIT, () -> acquire(store, "edge", algorithm, LIMIT, WINDOW));

        int expected = switch (algorithm) {
            case FIXED_WINDOW -> 2 * LIMIT - 1; // 9 before the boundary, a whole new window after it
            case SLIDING_WINDOW -> LIMIT - 1;   // after the boundary the previous window still weighs fully
            case SLIDING_LOG -> LIMIT;          // only the request at T0 has left the window
            case TOKEN_BUCKET -> LIMIT;         // a full bucket, then 1 ms earns no token
            case CONCURRENCY -> throw new IllegalArgumentException("not a rate");
        };
        assertThat(before + after).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndAlgorithm")
    void neverAdmitsMoreThanTheAlgorithmsBoundInAnyWindowOfABurstyTrace(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Random random = new Random(7);
        List<Long> admitted = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            clock.advance(random.nextInt(10) < 7 ? random.nextInt(4) : random.nextInt(400));
            if (acquire(store, "trace", algorithm, LIMIT, WINDOW).allowed()) {
                admitted.add(clock.millis());
            }
        }

        long busiest = busiestWindow(admitted, WINDOW);
        switch (algorithm) {
            case FIXED_WINDOW, TOKEN_BUCKET -> assertThat(busiest).isBetween(LIMIT + 1L, 2L * LIMIT);
            case SLIDING_WINDOW -> assertThat(busiest).isBetween((long) LIMIT, 2L * LIMIT - 1);
            case SLIDING_LOG -> assertThat(busiest).isEqualTo(LIMIT);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void tokenBucketEarnsOneRequestEveryWindowOverCountWithoutDrift(StoreKind kind) {
        RateLimitStore store = store(kind);
        int limit = 7;
        long window = 60_000; // one request every 8571.43 ms: never a whole number of milliseconds
        for (int i = 0; i < limit; i++) {
            assertThat(acquire(store, "bucket", Algorithm.TOKEN_BUCKET, limit, window).allowed()).isTrue();
        }
        for (long k = 1; k <= 2_000; k++) {
            Decision decision = acquire(store, "bucket", Algorithm.TOKEN_BUCKET, limit, window);
            assertThat(decision.allowed()).isFalse();
            clock.advance(decision.retryAfterMillis());
            assertThat(acquire(store, "bucket", Algorithm.TOKEN_BUCKET, limit, window).allowed()).isTrue();
            assertThat(clock.millis()).as("the %d-th earned request", k).isEqualTo(T0 + ceilDiv(k * window, limit));
        }

        clock.advance(window);
        int burst = admittedOf(limit + 5, () -> acquire(store, "bucket", Algorithm.TOKEN_BUCKET, limit, window));
        assertThat(burst).isEqualTo(limit);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void bothStoresDecideAlikeOnARecordedSequenceOfTimes(Algorithm algorithm) {
        RateLimitStore memory = store(StoreKind.MEMORY);
        RateLimitStore redisStore = store(StoreKind.REDIS);
        List<CounterRequest> counters = List.of(
                new CounterRequest("a", algorithm, 7, 60_000),
                new CounterRequest("b", algorithm, 3, 1_000),
                new CounterRequest("c", algorithm, 100, 10_000),
                new CounterRequest("d", algorithm, 5, 2_000),
                new CounterRequest("a", algorithm, 7, 60_000, 3, false, Penalty.NONE),
                new CounterRequest("c", algorithm, 100, 10_000, 37, false, Penalty.NONE));
        Random random = new Random(2024);
        int allowed = 0;
        int denied = 0;
        for (int i = 0; i < 3_000; i++) {
            clock.advance(switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> 1;
                case 2 -> random.nextInt(500);
                default -> random.nextInt(5_000);
            });
            List<Integer> picked = random.nextBoolean()
                    ? List.of(random.nextInt(counters.size()))
                    : List.of(random.nextInt(2), 2 + random.nextInt(4));
            List<CounterRequest> requests = picked.stream().map(counters::get).toList();

            List<Decision> inProcess = Stores.decided(memory.acquire(requests));
            assertThat(Stores.decided(redisStore.acquire(requests))).as("event %d at %d", i, clock.millis()).isEqualTo(inProcess);
            for (Decision decision : inProcess) {
                if (decision.allowed()) {
                    allowed++;
                } else {
                    denied++;
                }
            }
        }
        assertThat(allowed).isGreaterThan(500);
        assertThat(denied).isGreaterThan(500);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void everyRedisKeyHasATtlAndIsGoneAfterItsWindow(Algorithm algorithm) {
        RedisRateLimitStore live = new RedisRateLimitStore(redis.connection());
        for (int i = 0; i < 3; i++) {
            acquire(live, "ttl", algorithm, 2, 1_000);
        }

        assertThat(redis.commands().keys("*")).containsExactly("ttl");
        assertThat(redis.commands().pttl("ttl")).isBetween(1L, 2_000L);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> redis.commands().keys("*").isEmpty());
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void aRedisKeyThatLostItsTtlGetsItBackOnTheNextDenial(Algorithm algorithm) {
        RedisRateLimitStore live = new RedisRateLimitStore(redis.connection());
        acquire(live, "orphan", algorithm, 1, 60_000);
        redis.commands().persist("orphan");
        assertThat(redis.commands().pttl("orphan")).isEqualTo(-1L);

        assertThat(acquire(live, "orphan", algorithm, 1, 60_000).allowed()).isFalse();
        assertThat(redis.commands().pttl("orphan")).isBetween(1L, 120_000L);
    }

    /**
     * 64 clients take leases of a limit of 50 and keep them: exactly 50 are admitted. A release frees one
     * slot at once, and only one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void sixtyFourClientsHoldExactlyTheLimitOfLeasesAndAReleaseFreesOneSlot(StoreKind kind) throws Exception {
        RateLimitStore store = store(kind);
        AtomicInteger ids = new AtomicInteger();
        List<String> held = new CopyOnWriteArrayList<>();

        int admitted = ConcurrentClients.admitted(64, 5, thread -> {
            String id = "lease-" + ids.incrementAndGet();
            boolean allowed = take(store, "running", 50, id).allowed();
            if (allowed) {
                held.add(id);
            }
            return allowed;
        });

        assertThat(admitted).isEqualTo(50);
        release(store, "running", 50, held.get(7));
        assertThat(take(store, "running", 50, "late-1").allowed()).as("the slot released").isTrue();
        assertThat(take(store, "running", 50, "late-2").allowed()).as("and only that one").isFalse();
    }

    /**
     * Three of three slots held: a lease lasts its window unless renewed while live; a denial is told to
     * try again in a second, or when the first lease expires if that is sooner.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aLeaseExpiresAfterItsWindowUnlessRenewedWhileLive(StoreKind kind) {
        RateLimitStore store = store(kind);
        assertThat(take(store, "slots", 3, "a").allowed()).isTrue();
        clock.advance(3_000);
        assertThat(take(store, "slots", 3, "b").allowed()).isTrue();
        clock.advance(3_000);
        Decision last = take(store, "slots", 3, "c");
        assertThat(last.allowed()).isTrue();
        assertThat(last.remaining()).isZero();
        assertThat(last.retryAfterMillis()).as("a expires in 4 s, but a request may end sooner").isEqualTo(1_000);
        assertThat(last.resetMillis()).as("until the last lease expires").isEqualTo(LEASE);

        renew(store, "slots", 3, "a"); // at T0 + 6 s: a lives until T0 + 16 s
        clock.set(T0 + 12_500);
        Decision full = take(store, "slots", 3, "d");
        assertThat(full.allowed()).isFalse();
        assertThat(full.retryAfterMillis()).as("b expires at T0 + 13 s").isEqualTo(500);
        clock.set(T0 + 13_000);
        assertThat(take(store, "slots", 3, "d").allowed()).as("b expired").isTrue();
        renew(store, "slots", 3, "b");
        assertThat(take(store, "slots", 3, "e").allowed()).as("an expired lease is not renewed").isFalse();
        clock.set(T0 + 16_000);
        Decision freed = take(store, "slots", 3, "e");
        assertThat(freed.allowed()).as("a and c expired").isTrue();
        assertThat(freed.remaining()).isEqualTo(1);
    }

    /** A released lease is gone at once, and a renewal sent after its release does not bring it back. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aReleasedLeaseIsNeverBroughtBackByARenewal(StoreKind kind) {
        RateLimitStore store = store(kind);
        take(store, "released", 2, "a");
        take(store, "released", 2, "b");
        clock.advance(5_000);
        release(store, "released", 2, "a");
        renew(store, "released", 2, "a", "b");

        assertThat(take(store, "released", 2, "c").allowed()).as("a is gone").isTrue();
        clock.set(T0 + LEASE);
        Decision denied = take(store, "released", 2, "d");
        assertThat(denied.allowed()).as("b renewed, c new: both live").isFalse();
        assertThat(denied.resetMillis()).isEqualTo(5_000);
    }

    /** A peek says what a request would be told, and takes no slot. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyStore")
    void aPeekOfAConcurrencyLimitTakesNoSlot(StoreKind kind) {
        RateLimitStore store = store(kind);
        take(store, "peeked", 2, "a");
        Decision free = peekLease(store, "peeked", 2);
        assertThat(free.allowed()).isTrue();
        assertThat(free.remaining()).as("slots free now").isEqualTo(1);
        take(store, "peeked", 2, "b");
        Decision full = peekLease(store, "peeked", 2);
        assertThat(full.allowed()).isFalse();
        assertThat(full.retryAfterMillis()).isEqualTo(1_000);
        release(store, "peeked", 2, "a");
        assertThat(take(store, "peeked", 2, "c").allowed()).isTrue();
        assertThat(take(store, "peeked", 2, "d").allowed()).as("the peeks took nothing").isFalse();
    }

    /**
     * Random takes, peeks, releases and renewals of two concurrency limits (one with a penalty) at random
     * moments: the in-process store and the scripts, on both clients, decide alike every time.
     */
    @Test
    void bothStoresDecideAlikeOnARandomTraceOfLeases() {
        List<RateLimitStore> stores = everyStoreKind();
        Penalty penalty = new Penalty(3_000, 12_000);
        Random random = new Random(23);
        List<CounterRequest> held = new ArrayList<>();
        Tally tally = new Tally();
        for (int i = 0; i < 2_000; i++) {
            advanceInBursts(random, 500, 4_000);
            int action = random.nextInt(10);
            if (action < 6 || held.isEmpty()) {
                CounterRequest lease = random.nextInt(4) == 0
                        ? CounterRequest.lease("penalized", 1, 5_000, penalty, "l" + i)
                        : CounterRequest.lease("busy", 3, 2_000, Penalty.NONE, "l" + i);
                boolean peek = action == 5;
                if (tally.add(alike(stores, lease, peek, i)) && !peek) {
                    held.add(lease);
                }
            } else if (action < 8) {
                CounterRequest ended = held.remove(random.nextInt(held.size()));
                onEachStore(stores, ended, (store, request) -> store.refund(List.of(new Refund(request, 0))));
            } else {
                for (CounterRequest running : held.stream().filter(lease -> random.nextBoolean()).toList()) {
                    onEachStore(stores, running, (store, request) -> store.renew(List.of(request)));
                }
            }
        }
        tally.assertBoth(300);
    }

    @Test
    void aRedisLeaseSetLivesAsLongAsItsLatestLeaseAndHealsALostTtl() {
        RedisRateLimitStore live = new RedisRateLimitStore(redis.connection());
        assertThat(Stores.decide(live, CounterRequest.lease("held", 1, 1_000, Penalty.NONE, "a")).allowed()).isTrue();
        assertThat(redis.commands().zrange("held", 0, -1)).containsExactly("a");
        assertThat(redis.commands().pttl("held")).isBetween(1L, 1_000L);
        redis.commands().persist("held");

        assertThat(Stores.decide(live, CounterRequest.lease("held", 1, 1_000, Penalty.NONE, "b")).allowed()).isFalse();
        assertThat(redis.commands().pttl("held")).as("given back by the denial").isBetween(1L, 1_000L);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> redis.commands().exists("held") == 0);
    }

    static Stream<Arguments> everyStoreAndSettlingAlgorithm() {
        return Stream.of(StoreKind.values()).flatMap(kind -> Stream.of(Algorithm.FIXED_WINDOW, Algorithm.TOKEN_BUCKET)
                .map(algorithm -> Arguments.of(kind, algorithm)));
    }

    /**
     * 10 per second, a request estimated at 2 whose response said 25: 15 past the limit, a debt. The fixed
     * window is refused until the second window after it has paid it off (25 - 20 = 5 carried, and a sixth
     * unit fits); the token bucket until it has earned back all but the burst less one (1.6 s). The wait it
     * is told is the true one, to the millisecond.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndSettlingAlgorithm")
    void aChargePastTheLimitIsADebtRefusedForExactlyTheTimeItTakesToPayOff(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Decision estimated = Stores.decide(store, settled("debtor", algorithm, 2));
        assertThat(estimated.allowed()).isTrue();
        store.settle(List.of(new Settlement(settled("debtor", algorithm, 2), estimated.decidedAt(), 25)));

        long wait = algorithm == Algorithm.FIXED_WINDOW ? 2 * WINDOW : 1_600;
        Decision refused = Stores.decide(store, settled("debtor", algorithm, 1));
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfterMillis()).as("the debt's true wait").isEqualTo(wait);
        clock.advance(wait - 1);
        assertThat(Stores.decide(store, settled("debtor", algorithm, 1)).retryAfterMillis()).as("1 ms before").isEqualTo(1);
        clock.advance(1);
        Decision admitted = Stores.decide(store, settled("debtor", algorithm, 1));
        assertThat(admitted.allowed()).as("paid off").isTrue();
        assertThat(admitted.remaining()).as("what the debt left").isEqualTo(algorithm == Algorithm.FIXED_WINDOW ? 4 : 0);
    }

    /** What a response did not use of its estimate goes back at once; a denied request of a settled limit takes nothing. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndSettlingAlgorithm")
    void whatAResponseDidNotUseGoesBackAndADenialTakesNothing(StoreKind kind, Algorithm algorithm) {
        RateLimitStore store = store(kind);
        Decision estimated = Stores.decide(store, settled("saver", algorithm, 5));
        store.settle(List.of(new Settlement(settled("saver", algorithm, 5), estimated.decidedAt(), 1)));
        assertThat(Stores.decide(store, settled("saver", algorithm, 1)).remaining()).as("9 left, then 8").isEqualTo(8);

        Decision last = null;
        for (int i = 0; i < 8; i++) {
            last = Stores.decide(store, settled("saver", algorithm, 1));
        }
        for (int i = 0; i < 5; i++) {
            assertThat(Stores.decide(store, settled("saver", algorithm, 1)).allowed()).isFalse();
        }
        store.settle(List.of(new Settlement(settled("saver", algorithm, 1), last.decidedAt(), 0)));
        assertThat(Stores.decide(store, settled("saver", algorithm, 1)).allowed()).as("the unit given back").isTrue();
        assertThat(Stores.decide(store, settled("saver", algorithm, 1)).allowed()).isFalse();
    }

    /**
     * 64 clients, 3 requests each, estimated at 2 and settled at 0 to 5 units: the units charged are exactly
     * the sum of what the responses said.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyStoreAndSettlingAlgorithm")
    void theUnitsChargedAreExactlyWhatTheResponsesSaid(StoreKind kind, Algorithm algorithm) throws Exception {
        RateLimitStore store = store(kind);
        CounterRequest estimate = CounterRequest.settled("spender", algorithm, 1_000, 60_000, 2, Penalty.NONE);
        AtomicLong used = new AtomicLong();

        int admitted = ConcurrentClients.admitted(64, 3, thread -> {
            Decision decision = Stores.decide(store, estimate);
            long units = ThreadLocalRandom.current().nextLong(6);
            store.settle(List.of(new Settlement(estimate, decision.decidedAt(), units)));
            used.addAndGet(units);
            return decision.allowed();
        });

        assertThat(admitted).isEqualTo(64 * 3);
        assertThat(Stores.decided(store.peek(List.of(estimate.withCost(1)))).get(0).remaining())
                .as("units left").isEqualTo(1_000 - used.get());
    }

    /**
     * Random requests of random estimates, settled at random units (debts included), at random moments, on
     * both algorithms that settle: the in-process store and the scripts, on both clients, decide alike.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "TOKEN_BUCKET"})
    void bothStoresDecideAlikeOnARandomTraceOfSettlements(Algorithm algorithm) {
        List<RateLimitStore> stores = everyStoreKind();
        Random random = new Random(31);
        Tally tally = new Tally();
        for (int i = 0; i < 2_000; i++) {
            advanceInBursts(random, 300, 3_000);
            CounterRequest request = CounterRequest.settled("settling", algorithm, 10, 1_000, 1 + random.nextInt(3),
                    Penalty.NONE);
            boolean peek = random.nextInt(5) == 0;
            long units = random.nextInt(4) == 0 ? random.nextInt(30) : random.nextInt(5);
            Decision decision = alike(stores, request, peek, i);
            if (tally.add(decision) && !peek) {
                onEachStore(stores, request, (store, asked) -> store.settle(List.of(
                        new Settlement(asked, decision.decidedAt(), units))));
            }
        }
        tally.assertBoth(300);
    }

    /** A debt keeps its Redis key as long as it takes to pay it off, and no longer. */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "TOKEN_BUCKET"})
    void aDebtKeepsItsRedisKeyUntilItIsPaidOff(Algorithm algorithm) {
        RedisRateLimitStore live = new RedisRateLimitStore(redis.connection());
        live.open(Duration.ofSeconds(10));
        CounterRequest estimate = CounterRequest.settled("owed", algorithm, 1, 1_000, 1, Penalty.NONE);
        live.settle(List.of(new Settlement(estimate, Stores.decide(live, estimate).decidedAt(), 3)));

        Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> redis.commands().pttl("owed") > 2_000);
        assertThat(redis.commands().pttl("owed")).as("three windows' worth of debt").isBetween(2_000L, 3_000L);
        Awaitility.await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(50))
                .until(() -> redis.commands().exists("owed") == 0);
    }

    private RateLimitStore store(StoreKind kind) {
        RedisRateLimitStore redisStore = switch (kind) {
            case MEMORY -> null;
            case REDIS -> new RedisRateLimitStore(redis.connection(), clock);
        };
        if (redisStore == null) {
            return new MemoryRateLimitStore(clock, 100_000);
        }
        // As at an app's start: with the scripts loaded, refunds and requests reach Redis in the order they
        // were sent, so a refund is counted before any request sent after it (none is sent again as EVAL).
        redisStore.open(Duration.ofSeconds(10));
        return redisStore;
    }

    /** A store of each kind, in the order of {@link StoreKind}. */
    private List<RateLimitStore> everyStoreKind() {
        return Stream.of(StoreKind.values()).map(this::store).toList();
    }

    /** Moves the clock as a bursty trace does: often not at all or by 1 ms, else by up to {@code near} or {@code far} ms. */
    private void advanceInBursts(Random random, int near, int far) {
        clock.advance(switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> random.nextInt(near);
            default -> random.nextInt(far);
        });
    }

    /** One request decided (or peeked at) by every store of {@link #everyStoreKind}: they must agree. */
    private Decision alike(List<RateLimitStore> stores, CounterRequest request, boolean peek, int event) {
        List<Decision> decisions = new ArrayList<>();
        onEachStore(stores, request, (store, asked) -> decisions.add(Stores.decided(
                peek ? store.peek(List.of(asked)) : store.acquire(List.of(asked))).get(0)));
        assertThat(decisions).as("event %d at %d", event, clock.millis()).containsOnly(decisions.get(0));
        return decisions.get(0);
    }

    /** Does something with the request on every store of {@link #everyStoreKind}. */
    private static void onEachStore(List<RateLimitStore> stores, CounterRequest request,
                                    BiConsumer<RateLimitStore, CounterRequest> action) {
        stores.forEach(store -> action.accept(store, request));
    }

    /** Admissions and denials of a trace, of which there must be enough of both for it to prove anything. */
    private static final class Tally {

        private int allowed;
        private int denied;

        /** @return whether the decision admitted */
        boolean add(Decision decision) {
            if (decision.allowed()) {
                allowed++;
            } else {
                denied++;
            }
            return decision.allowed();
        }

        void assertBoth(int atLeast) {
            assertThat(allowed).as("admitted").isGreaterThan(atLeast);
            assertThat(denied).as("denied").isGreaterThan(atLeast);
        }
    }

    private CounterRequest leaseOf(String key, long limit, String id) {
        return CounterRequest.lease(key, limit, LEASE, Penalty.NONE, id);
    }

    private Decision take(RateLimitStore store, String key, long limit, String id) {
        return Stores.decide(store, leaseOf(key, limit, id));
    }

    private Decision peekLease(RateLimitStore store, String key, long limit) {
        return Stores.decided(store.peek(List.of(leaseOf(key, limit, null)))).get(0);
    }

    private void release(RateLimitStore store, String key, long limit, String id) {
        store.refund(List.of(new Refund(leaseOf(key, limit, id), clock.millis())));
    }

    private void renew(RateLimitStore store, String key, long limit, String... ids) {
        store.renew(Stream.of(ids).map(id -> leaseOf(key, limit, id)).toList());
    }

    /** A request of {@code estimate} units against 10 per second, settled after its response. */
    private static CounterRequest settled(String key, Algorithm algorithm, long estimate) {
        return CounterRequest.settled(key, algorithm, LIMIT, WINDOW, estimate, Penalty.NONE);
    }

    private static Decision acquire(RateLimitStore store, String key, Algorithm algorithm, long limit, long window) {
        return Stores.decide(store, new CounterRequest(key, algorithm, limit, window));
    }

    /** Two per calendar period, the period starts computed by the test's clock as an instance does. */
    private Decision quota(RateLimitStore store, QuotaPeriod period, ZoneId zone) {
        return Stores.decide(store, quotaRequest(period, zone));
    }

    private CounterRequest quotaRequest(QuotaPeriod period, ZoneId zone) {
        return new CounterRequest("quota-" + period, Algorithm.FIXED_WINDOW, 2, period.longestSeconds() * 1000, 1, false,
                Penalty.NONE, CalendarBounds.around(period, zone, clock.millis()));
    }

    private static CounterRequest weighed(String key, Algorithm algorithm, long cost) {
        return new CounterRequest(key, algorithm, 10, 2_000, cost, false, Penalty.NONE);
    }

    private static Decision heavy(RateLimitStore store, Algorithm algorithm) {
        return Stores.decide(store, new CounterRequest("heavy", algorithm, 10, 2_000, 3, false, Penalty.NONE));
    }

    private static Decision penalized(RateLimitStore store, Algorithm algorithm, Penalty penalty) {
        return Stores.decide(store, new CounterRequest("offender", algorithm, 2, 10_000, 1, false, penalty));
    }

    private static void refund(RateLimitStore store, String key, Algorithm algorithm, long limit, long window,
                               Decision decision) {
        store.refund(List.of(new Refund(new CounterRequest(key, algorithm, limit, window), decision.decidedAt())));
    }

    private static int admittedOf(int attempts, java.util.function.Supplier<Decision> attempt) {
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            if (attempt.get().allowed()) {
                admitted++;
            }
        }
        return admitted;
    }

    /** The most admissions within any {@code window} consecutive milliseconds. */
    private static long busiestWindow(List<Long> times, long window) {
        long busiest = 0;
        int first = 0;
        for (int last = 0; last < times.size(); last++) {
            while (times.get(last) - times.get(first) >= window) {
                first++;
            }
            busiest = Math.max(busiest, last - first + 1);
        }
        return busiest;
    }

    private static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
