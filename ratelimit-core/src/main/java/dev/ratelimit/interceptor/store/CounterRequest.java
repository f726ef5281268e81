package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One request to count against one counter.
 *
 * @param cost       the units it takes, at least 1 and at most the limit
 * @param refundable whether the request may give its unit back ({@code countWhen}): then a denial says
 *                   nothing lasting, since any instance's refund can make room at any moment
 * @param penalty    how long a denied client stays denied; {@link Penalty#NONE} for its window only
 * @param calendar   for a calendar quota (a fixed window from local midnight to local midnight): the period
 *                   starts around now; {@code null} for a window of {@code windowMillis} from the first request
 * @param lease      for {@link Algorithm#CONCURRENCY}: the id of the slot the request takes, unique across
 *                   instances, which its release and renewals name; {@code null} otherwise, and for a peek
 * @param settled    whether the cost is an estimate, settled after the response ({@link Settlement}): then a
 *                   denial says nothing lasting, a denied request is never counted, and a fixed window may
 *                   end in debt, which the windows after it pay off
 * @param batch      for a hot counter: the permits to take beyond the cost for this instance, if admitted;
 *                   {@code null} for none
 * @param batchable  whether the counter may be counted in batches of permits when it is hot: not when its
 *                   rule is excluded ({@code ratelimit.hot-keys.excluded-rules}) or switched off
 *                   ({@code <rule>.batch=off})
 */
public record CounterRequest(String key, Algorithm algorithm, long count, long windowMillis, long cost,
                             boolean refundable, Penalty penalty, @Nullable CalendarBounds calendar,
                             @Nullable String lease, boolean settled, @Nullable BatchRequest batch, boolean batchable) {

    public CounterRequest {
        if (cost < 1 || cost > count) {
            throw new IllegalArgumentException("a request's cost must be from 1 to the count " + count + ", was " + cost);
        }
    }

    /** A request that takes no batch yet, of a counter that may be batched. */
    public CounterRequest(String key, Algorithm algorithm, long count, long windowMillis, long cost,
                          boolean refundable, Penalty penalty, @Nullable CalendarBounds calendar, @Nullable String lease,
                          boolean settled) {
        this(key, algorithm, count, windowMillis, cost, refundable, penalty, calendar, lease, settled, null, true);
    }

    /** A request of one unit that keeps it, without penalty. */
    public CounterRequest(String key, Algorithm algorithm, long count, long windowMillis) {
        this(key, algorithm, count, windowMillis, 1, false, Penalty.NONE, null, null, false);
    }

    /** A request of a window from its first request, not a calendar quota. */
    public CounterRequest(String key, Algorithm algorithm, long count, long windowMillis, long cost, boolean refundable,
                          Penalty penalty) {
        this(key, algorithm, count, windowMillis, cost, refundable, penalty, null, null, false);
    }

    /** A request that takes no lease and keeps its cost. */
    public CounterRequest(String key, Algorithm algorithm, long count, long windowMillis, long cost, boolean refundable,
                          Penalty penalty, @Nullable CalendarBounds calendar) {
        this(key, algorithm, count, windowMillis, cost, refundable, penalty, calendar, null, false);
    }

    /** A {@link Algorithm#CONCURRENCY} request taking the slot {@code lease} for {@code leaseMillis}. */
    public static CounterRequest lease(String key, long count, long leaseMillis, Penalty penalty, String lease) {
        return new CounterRequest(key, Algorithm.CONCURRENCY, count, leaseMillis, 1, false, penalty, null, lease, false);
    }

    /** A request of {@code estimate} units, its cost settled after the response. */
    public static CounterRequest settled(String key, Algorithm algorithm, long count, long windowMillis, long estimate,
                                         Penalty penalty) {
        return new CounterRequest(key, algorithm, count, windowMillis, estimate, false, penalty, null, null, true);
    }

    /**
     * Whether a denial of this request may end any moment: a refund, a settlement or a request ending, on
     * any instance, can make room the moment after, so such a denial is never remembered.
     */
    public boolean denialMayEndAnyMoment() {
        return refundable || settled || algorithm == Algorithm.CONCURRENCY;
    }

    /**
     * Whether the store keeps the units of this request pending, if admitted, until its response settles them:
     * a refundable or settled request of a limit with a penalty. Only a denial that those of the requests still
     * running could not undo is final and starts a block; a confirmation ({@link Settlement}) says they stay.
     */
    public boolean holdsPendingUnits() {
        return (refundable || settled) && penalty.applies();
    }

    /** This request with another cost, from 1 to the count: what a part of it weighs. */
    public CounterRequest withCost(long newCost) {
        return new CounterRequest(key, algorithm, count, windowMillis, newCost, refundable, penalty, calendar, lease,
                settled, batch, batchable);
    }

    /**
     * This request with another count: an instance's share of it. A cost above the share is cut to it,
     * so that the request can still be admitted by an instance deciding alone.
     */
    public CounterRequest withCount(long newCount) {
        return new CounterRequest(key, algorithm, newCount, windowMillis, Math.min(cost, newCount), refundable, penalty,
                calendar, lease, settled, batch, batchable);
    }

    /** This request asking for a batch of permits beside its own cost; {@code null} for none. */
    public CounterRequest withBatch(@Nullable BatchRequest newBatch) {
        return new CounterRequest(key, algorithm, count, windowMillis, cost, refundable, penalty, calendar, lease,
                settled, newBatch, batchable);
    }

    /** Whether {@code other} counts on the same counter the same way: same key, algorithm, limit and period. */
    public boolean sameCounterAs(CounterRequest other) {
        return key.equals(other.key) && algorithm == other.algorithm && count == other.count
                && windowMillis == other.windowMillis && Objects.equals(calendar, other.calendar);
    }
}
