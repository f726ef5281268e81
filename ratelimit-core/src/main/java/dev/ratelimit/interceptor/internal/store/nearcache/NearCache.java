package dev.ratelimit.interceptor.internal.store.nearcache;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The denials this instance was told, kept until they end, so that a client Redis has blocked is
 * refused here without asking Redis again. Every script returns how long the denial lasts; until then
 * Redis would deny the key too, unless something frees it (a new count or window, a deleted counter),
 * so an entry only answers a request with the same algorithm, count and window, and {@link #clear()}
 * forgets everything when the config changes.
 *
 * <p>Times are this process' monotonic clock, counted from when the request was sent, so a remembered
 * denial ends no later than Redis' own. At most {@code maxEntries} entries: beyond that the least
 * recently used tenth goes in one sweep (expired ones first), so a flood of blocked identities costs
 * memory within the cap and, per new entry, a small share of one sort.
 */
public final class NearCache {

    /** The shipped {@code ratelimit.near-cache.max-entries}, as the text a property takes. */
    public static final String DEFAULT_MAX_ENTRIES = "10000";

    private final int maxEntries;
    private final ConcurrentHashMap<String, Denial> denials = new ConcurrentHashMap<>();
    private final ReentrantLock eviction = new ReentrantLock();
    private final LongAdder hits = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private volatile long clearedAtNanos = System.nanoTime();

    public NearCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("ratelimit.near-cache.max-entries must be at least 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /**
     * The denial of {@code request} at {@code nowNanos}, counting down, or {@code null} when none is
     * known for its key, count, window and algorithm.
     */
    public @Nullable Decision denial(CounterRequest request, long nowNanos) {
        Denial denial = denials.get(request.key());
        if (denial == null) {
            return null;
        }
        long left = denial.deniedUntilNanos - nowNanos;
        if (left <= 0 || !denial.answers(request)) {
            denials.remove(request.key(), denial);
            return null;
        }
        denial.lastUsedNanos = nowNanos;
        hits.increment();
        long retryAfter = millisRoundedUp(left);
        return new Decision(false, request.count(), 0, retryAfter,
                Math.max(retryAfter, millisRoundedUp(denial.resetAtNanos - nowNanos)), 0); // a denial is never refunded
    }

    /**
     * Remembers a denial; an admission changes nothing, nor does a denial that may end any moment (a refund,
     * or a request ending, on any instance may make room the moment after). A decision of a request sent before the last
     * {@link #clear()} is ignored: what freed the key may have come after Redis decided.
     *
     * @param sentAtNanos {@link System#nanoTime()} when the request was sent to the store
     */
    public void learn(CounterRequest request, Decision decision, long sentAtNanos) {
        if (decision.allowed() || request.denialMayEndAnyMoment() || decision.retryAfterMillis() <= 0
                || sentAtNanos - clearedAtNanos <= 0) {
            return;
        }
        Denial denial = new Denial(request.algorithm(), request.count(), request.windowMillis(), request.cost(),
                sentAtNanos + decision.retryAfterMillis() * 1_000_000,
                sentAtNanos + decision.resetMillis() * 1_000_000, sentAtNanos);
        denials.put(request.key(), denial);
        if (sentAtNanos - clearedAtNanos <= 0) {
            denials.remove(request.key(), denial); // cleared while this was put
        }
        if (denials.size() > maxEntries) {
            evict();
        }
    }

    /** Forgets every denial: the config changed, or an operator freed a counter. */
    public void clear() {
        clearedAtNanos = System.nanoTime();
        denials.clear();
    }

    public int size() {
        return denials.size();
    }

    /** What the actuator endpoint shows. */
    public Map<String, Object> describe() {
        return Map.of("entries", denials.size(), "maxEntries", maxEntries, "hits", hits.sum(),
                "evictions", evictions.sum());
    }

    private void evict() {
        if (!eviction.tryLock()) {
            return; // another thread is making room
        }
        try {
            long now = System.nanoTime();
            denials.values().removeIf(denial -> denial.deniedUntilNanos - now <= 0);
            int excess = denials.size() - maxEntries * 9 / 10;
            if (excess <= 0) {
                return;
            }
            // Each age read once: requests go on using entries while they are sorted.
            List<Aged> aged = new ArrayList<>(denials.size());
            denials.forEach((key, denial) -> aged.add(new Aged(key, denial, now - denial.lastUsedNanos)));
            aged.sort(Comparator.comparingLong(Aged::ageNanos).reversed());
            for (int i = 0; i < excess && i < aged.size(); i++) {
                if (denials.remove(aged.get(i).key(), aged.get(i).denial())) {
                    evictions.increment();
                }
            }
        } finally {
            eviction.unlock();
        }
    }

    private static long millisRoundedUp(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 999_999) / 1_000_000;
    }

    private record Aged(String key, Denial denial, long ageNanos) {
    }

    /** One remembered denial; {@code lastUsedNanos} orders the eviction. */
    private static final class Denial {

        final Algorithm algorithm;
        final long limit;
        final long windowMillis;
        final long cost;
        final long deniedUntilNanos;
        final long resetAtNanos;
        volatile long lastUsedNanos;

        Denial(Algorithm algorithm, long limit, long windowMillis, long cost, long deniedUntilNanos, long resetAtNanos,
               long lastUsedNanos) {
            this.algorithm = algorithm;
            this.limit = limit;
            this.windowMillis = windowMillis;
            this.cost = cost;
            this.deniedUntilNanos = deniedUntilNanos;
            this.resetAtNanos = resetAtNanos;
            this.lastUsedNanos = lastUsedNanos;
        }

        /** A denial of a request of some cost says nothing of a lighter one: there may be room for it. */
        boolean answers(CounterRequest request) {
            return request.algorithm() == algorithm && request.count() == limit && request.windowMillis() == windowMillis
                    && request.cost() >= cost;
        }
    }
}
