package dev.ratelimit.bench;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.store.CalendarBounds;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.Refund;
import dev.ratelimit.interceptor.store.Settlement;
import dev.ratelimit.interceptor.store.StoreResult;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Our store, called through {@link RateLimitStore#acquire} exactly as the interceptor calls it: one
 * list of counter requests per HTTP request, admitted when every limit admits; then, for the kinds of
 * limit whose request's end settles something, what the interceptor sends once the response is written.
 */
public final class StoreLimiter implements Limiter {

    private final RateLimitStore store;
    private final IntFunction<List<CounterRequest>> requests;
    private final Ending ending;
    private final boolean peekOnly;

    private StoreLimiter(RateLimitStore store, List<List<CounterRequest>> requests, Ending ending) {
        this(store, requests::get, ending, false);
    }

    private StoreLimiter(RateLimitStore store, IntFunction<List<CounterRequest>> requests, Ending ending,
                         boolean peekOnly) {
        this.store = store;
        this.requests = requests;
        this.ending = ending;
        this.peekOnly = peekOnly;
    }

    /** Asks without spending ({@link RateLimitStore#peek}): what {@code RateLimitService.peek} costs the store. */
    public static StoreLimiter oneLimitPeeked(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, false, Penalty.NONE)::get, Ending.NOTHING,
                true);
    }

    /** One limit per request, on counter {@code key(i)}. */
    public static StoreLimiter oneLimit(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, false, Penalty.NONE), Ending.NOTHING);
    }

    /** One limit per request, each request weighing {@code cost} units. */
    public static StoreLimiter oneLimitWeighed(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys,
                                               long cost) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, cost, false, Penalty.NONE), Ending.NOTHING);
    }

    /** One calendar quota per request (a day in UTC): the script also picks the period that holds now. */
    public static StoreLimiter oneDailyQuota(RateLimitStore store, BenchLimit limit, int keys) {
        CalendarBounds day = CalendarBounds.around(QuotaPeriod.DAY, ZoneOffset.UTC, System.currentTimeMillis());
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            requests.add(List.of(new CounterRequest(KeySpread.key(i), Algorithm.FIXED_WINDOW, limit.count(),
                    QuotaPeriod.DAY.longestSeconds() * 1000, 1, false, Penalty.NONE, day)));
        }
        return new StoreLimiter(store, requests, Ending.NOTHING);
    }

    /** One limit with a penalty per request: its script reads the penalty hash too. */
    public static StoreLimiter oneLimitPenalized(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, false, penalty(limit)), Ending.NOTHING);
    }

    /**
     * One {@code countWhen} limit with a penalty per request: an admitted request holds its unit pending in the
     * penalty hash until it ends, and then gives it back ({@code kept} false, a response that does not match) or
     * confirms it (a response that matches), as the interceptor does once the response is written.
     */
    public static StoreLimiter oneLimitPending(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys,
                                               boolean kept) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, true, penalty(limit)),
                kept ? Ending.KEEP : Ending.GIVE_BACK);
    }

    private static Penalty penalty(BenchLimit limit) {
        return new Penalty(limit.window().toMillis() * 10, limit.window().toMillis() * 40);
    }

    /**
     * One {@code countWhen} limit per request whose response never matches: every admitted request gives
     * its unit back, as the interceptor does once the response is written. The dearest case of the kind.
     */
    public static StoreLimiter oneLimitRefunded(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, false, Penalty.NONE), Ending.GIVE_BACK);
    }

    /**
     * One limit of requests running at once per request ({@code CONCURRENCY}): each takes a lease of its own
     * and, once admitted, releases it, as a request does when its response is written. A lease of 10 s, the
     * shipped default.
     */
    public static StoreLimiter oneLease(RateLimitStore store, BenchLimit limit, int keys) {
        AtomicLong leases = new AtomicLong();
        return new StoreLimiter(store, key -> List.of(CounterRequest.lease(KeySpread.key(key), limit.count(), 10_000,
                Penalty.NONE, "bench:" + leases.incrementAndGet())), Ending.GIVE_BACK, false);
    }

    /**
     * One limit per request whose cost is settled after the response ({@code costFromResponse}): each takes
     * an estimate of 1 and, once admitted, is settled at {@code used} units, as the interceptor does once the
     * response is written.
     */
    public static StoreLimiter oneLimitSettled(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys,
                                               long used) {
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            requests.add(List.of(CounterRequest.settled(KeySpread.key(i), algorithm, limit.count(),
                    limit.window().toMillis(), 1, Penalty.NONE)));
        }
        return new StoreLimiter(store, requests, Ending.settledAt(used));
    }

    private static List<List<CounterRequest>> oneLimitRequests(Algorithm algorithm, BenchLimit limit, int keys,
                                                               long cost, boolean refundable, Penalty penalty) {
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            requests.add(List.of(new CounterRequest(KeySpread.key(i), algorithm, limit.count(),
                    limit.window().toMillis(), cost, refundable, penalty)));
        }
        return requests;
    }

    /**
     * Two fixed-window limits per request, as {@code @RateLimit} stacked for the user and the IP: the
     * interceptor sends them to the store together.
     */
    public static StoreLimiter twoLimits(RateLimitStore store, BenchLimit limit, int keys) {
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            String user = KeySpread.key(i);
            requests.add(List.of(request(user, Algorithm.FIXED_WINDOW, limit),
                    request(user.replace(":USER:", ":IP:"), Algorithm.FIXED_WINDOW, limit)));
        }
        return new StoreLimiter(store, requests, Ending.NOTHING);
    }

    private static CounterRequest request(String key, Algorithm algorithm, BenchLimit limit) {
        return new CounterRequest(key, algorithm, limit.count(), limit.window().toMillis());
    }

    @Override
    public Object heldState() {
        return store;
    }

    @Override
    public boolean tryAcquire(int key) {
        List<CounterRequest> asked = requests.apply(key);
        StoreResult result = peekOnly ? store.peek(asked) : store.acquire(asked);
        if (!(result instanceof StoreResult.Decided decided)) {
            throw new IllegalStateException("the store did not decide: " + ((StoreResult.NotDecided) result).reason());
        }
        for (Decision decision : decided.decisions()) {
            if (!decision.allowed()) {
                return false;
            }
        }
        ending.ended(store, asked, decided.decisions());
        return true;
    }

    /** What an admitted request sends the store when it ends. */
    @FunctionalInterface
    private interface Ending {

        Ending NOTHING = (store, asked, decisions) -> { };

        /** Every unit given back: a {@code countWhen} that never matches, a lease released. */
        Ending GIVE_BACK = (store, asked, decisions) -> {
            List<Refund> refunds = new ArrayList<>(asked.size());
            for (int i = 0; i < asked.size(); i++) {
                refunds.add(new Refund(asked.get(i), decisions.get(i).decidedAt()));
            }
            store.refund(refunds);
        };

        /** Every unit kept: a {@code countWhen} that matches, confirmed where the store held it pending. */
        Ending KEEP = (store, asked, decisions) -> {
            List<Settlement> settlements = new ArrayList<>(asked.size());
            for (int i = 0; i < asked.size(); i++) {
                settlements.add(new Settlement(asked.get(i), decisions.get(i).decidedAt(), asked.get(i).cost()));
            }
            store.settle(settlements);
        };

        static Ending settledAt(long used) {
            return (store, asked, decisions) -> {
                List<Settlement> settlements = new ArrayList<>(asked.size());
                for (int i = 0; i < asked.size(); i++) {
                    settlements.add(new Settlement(asked.get(i), decisions.get(i).decidedAt(), used));
                }
                store.settle(settlements);
            };
        }

        void ended(RateLimitStore store, List<CounterRequest> asked, List<Decision> decisions);
    }
}
