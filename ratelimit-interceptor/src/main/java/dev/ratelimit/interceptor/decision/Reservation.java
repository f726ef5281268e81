package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.store.Refund;

/**
 * What a request took that its ending settles: a unit of a limit that counts only some responses, given
 * back unless the response matches {@code countWhen}; or the lease of a concurrency limit, released
 * whatever the response.
 *
 * @param countWhen the limit's condition on the response; empty for a lease
 * @param refund    what giving the unit back, or releasing the lease, takes
 */
public record Reservation(String countWhen, Refund refund) {

    /** Whether it is a concurrency limit's lease. */
    public boolean isLease() {
        return refund.request().lease() != null;
    }

    /** Whether a request that ended as {@code completion} says gives it back: a lease always goes back. */
    boolean givenBack(Completion completion) {
        return isLease() || !completion.counts(countWhen);
    }
}
