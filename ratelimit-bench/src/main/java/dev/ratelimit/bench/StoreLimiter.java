package dev.ratelimit.bench;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.store.CalendarBounds;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.Refund;
import dev.ratelimit.interceptor.store.StoreResult;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Our store, called through {@link RateLimitStore#acquire} exactly as the interceptor calls it: one
 * list of counter requests per HTTP request, admitted when every limit admits.
 */
public final class StoreLimiter implements Limiter {

    private final RateLimitStore store;
    private final List<List<CounterRequest>> requests;
    private final boolean refundAdmitted;
    private final boolean peekOnly;

    private StoreLimiter(RateLimitStore store, List<List<CounterRequest>> requests, boolean refundAdmitted) {
        this(store, requests, refundAdmitted, false);
    }

    private StoreLimiter(RateLimitStore store, List<List<CounterRequest>> requests, boolean refundAdmitted,
                         boolean peekOnly) {
        this.store = store;
        this.requests = requests;
        this.refundAdmitted = refundAdmitted;
        this.peekOnly = peekOnly;
    }

    /** Asks without spending ({@link RateLimitStore#peek}): what {@code RateLimitService.peek} costs the store. */
    public static StoreLimiter oneLimitPeeked(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, Penalty.NONE), false, true);
    }

    /** One limit per request, on counter {@code key(i)}. */
    public static StoreLimiter oneLimit(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, Penalty.NONE), false);
    }

    /** One limit per request, each request weighing {@code cost} units. */
    public static StoreLimiter oneLimitWeighed(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys,
                                               long cost) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, cost, Penalty.NONE), false);
    }

    /** One calendar quota per request (a day in UTC): the script also picks the period that holds now. */
    public static StoreLimiter oneDailyQuota(RateLimitStore store, BenchLimit limit, int keys) {
        CalendarBounds day = CalendarBounds.around(QuotaPeriod.DAY, ZoneOffset.UTC, System.currentTimeMillis());
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            requests.add(List.of(new CounterRequest(KeySpread.key(i), Algorithm.FIXED_WINDOW, limit.count(),
                    QuotaPeriod.DAY.longestSeconds() * 1000, 1, false, Penalty.NONE, day)));
        }
        return new StoreLimiter(store, requests, false);
    }

    /** One limit with a penalty per request: its script reads the penalty hash too. */
    public static StoreLimiter oneLimitPenalized(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        Penalty penalty = new Penalty(limit.window().toMillis() * 10, limit.window().toMillis() * 40);
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, penalty), false);
    }

    /**
     * One {@code countWhen} limit per request whose response never matches: every admitted request gives
     * its unit back, as the interceptor does once the response is written. The dearest case of the kind.
     */
    public static StoreLimiter oneLimitRefunded(RateLimitStore store, Algorithm algorithm, BenchLimit limit, int keys) {
        return new StoreLimiter(store, oneLimitRequests(algorithm, limit, keys, 1, Penalty.NONE), true);
    }

    private static List<List<CounterRequest>> oneLimitRequests(Algorithm algorithm, BenchLimit limit, int keys,
                                                               long cost, Penalty penalty) {
        List<List<CounterRequest>> requests = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            requests.add(List.of(new CounterRequest(KeySpread.key(i), algorithm, limit.count(),
                    limit.window().toMillis(), cost, false, penalty)));
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
        return new StoreLimiter(store, requests, false);
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
        StoreResult result = peekOnly ? store.peek(requests.get(key)) : store.acquire(requests.get(key));
        if (!(result instanceof StoreResult.Decided decided)) {
            throw new IllegalStateException("the store did not decide");
        }
        List<CounterRequest> asked = requests.get(key);
        for (Decision decision : decided.decisions()) {
            if (!decision.allowed()) {
                return false;
            }
        }
        if (refundAdmitted) {
            List<Refund> refunds = new ArrayList<>(asked.size());
            for (int i = 0; i < asked.size(); i++) {
                refunds.add(new Refund(asked.get(i), decided.decisions().get(i).decidedAt()));
            }
            store.refund(refunds);
        }
        return true;
    }
}
