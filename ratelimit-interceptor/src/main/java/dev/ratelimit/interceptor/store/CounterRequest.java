package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;

/**
 * One request to count against one counter.
 *
 * @param refundable whether the request may give its unit back ({@code countWhen}): then a denial says
 *                   nothing lasting, since any instance's refund can make room at any moment
 * @param penalty    how long a denied client stays denied; {@link Penalty#NONE} for its window only
 */
public record CounterRequest(String key, Algorithm algorithm, long limit, long windowMillis, boolean refundable,
                             Penalty penalty) {

    /** A request that keeps its unit, without penalty. */
    public CounterRequest(String key, Algorithm algorithm, long limit, long windowMillis) {
        this(key, algorithm, limit, windowMillis, false, Penalty.NONE);
    }

    /** This request with another limit: an instance's share of it. */
    public CounterRequest withLimit(long newLimit) {
        return new CounterRequest(key, algorithm, newLimit, windowMillis, refundable, penalty);
    }
}
