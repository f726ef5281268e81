package dev.ratelimit.interceptor.internal.store.batch;

import dev.ratelimit.interceptor.store.Batch;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Permits of one counter this instance took from the store and admits requests from, without asking:
 * counted there already, void once their window is over, given back when unused. Taking and draining are
 * atomic, so each permit is used once, or given back once, or lost with its window.
 *
 * @see BatchingRateLimitStore
 */
final class PermitBatch {

    /** The request the batch was taken with: its counter, and the {@link Refund} that gives back what is unused. */
    final CounterRequest request;
    /** The store's time of the decision that took the batch, naming it to a refund. */
    final long decidedAt;
    final long window;
    final long goodUntilNanos;
    private final long storeRemaining;
    private final long resetAtNanos;
    /** The counts of its window its permits stand for, in the order they are used. */
    private final PermitCounts counts;
    private final long units;
    private final AtomicLong left;

    /**
     * @param units  its permits
     * @param counts the counts of the window they stand for, in the order they are used
     */
    PermitBatch(CounterRequest request, Decision decision, long units, PermitCounts counts, long goodUntilNanos,
                long sentAtNanos) {
        this.request = request;
        this.decidedAt = decision.decidedAt();
        this.window = decision.batch().window();
        this.goodUntilNanos = goodUntilNanos;
        this.storeRemaining = decision.remaining();
        this.resetAtNanos = sentAtNanos + decision.resetMillis() * 1_000_000;
        this.units = units;
        this.counts = counts;
        this.left = new AtomicLong(units);
    }

    /** Whether this batch counts on the counter of {@code other}, with the same limit. */
    boolean serves(CounterRequest other) {
        return request.sameCounterAs(other);
    }

    boolean goodAt(long nowNanos) {
        return goodUntilNanos - nowNanos > 0;
    }

    long left() {
        return left.get();
    }

    /**
     * Takes {@code cost} permits if that many are left: the decision, as the store would have told it, but
     * that the units left are those here and those the store had left when it gave the batch. Its demand is the
     * count its last permit stands for ({@link PermitCounts}), when the store told counts (a fixed window's), so
     * that the limit advisor counts the permits used, not those taken.
     */
    @Nullable Decision take(long cost, long nowNanos) {
        long now;
        do {
            now = left.get();
            if (now < cost) {
                return null;
            }
        } while (!left.compareAndSet(now, now - cost));
        long reset = Math.max(0, (resetAtNanos - nowNanos + 999_999) / 1_000_000);
        long demand = counts.known() ? counts.at(units - now + cost - 1) : 0;
        return new Decision(true, request.count(), now - cost + storeRemaining, 0, reset, decidedAt, Batch.NONE,
                demand);
    }

    /** The counts the last {@code n} permits stand for. */
    PermitCounts countsOfLast(long n) {
        return counts.known() ? counts.from(units - n) : PermitCounts.UNKNOWN;
    }

    /** Takes every permit left, none to be used here any more: how many. */
    long drain() {
        return left.getAndSet(0);
    }

    /**
     * The refund of {@code units} unused permits of this batch, under a limit of {@code limit} or this batch's,
     * the higher: a refund discounts the requests counted past the limit (denied ones), so a lower limit would
     * discount admitted requests, and a higher one, set since, may have admitted past the old.
     */
    Refund refund(long units, long limit) {
        return new Refund(request.withCount(Math.max(limit, request.count())).withCost(units), decidedAt);
    }
}
