package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;

/**
 * One request to count against one counter.
 *
 * @param refundable whether the request may give its unit back ({@code countWhen}): then a denial says
 *                   nothing lasting, since any instance's refund can make room at any moment
 */
public record CounterRequest(String key, Algorithm algorithm, long limit, long windowMillis, boolean refundable) {

    /** A request that keeps its unit. */
    public CounterRequest(String key, Algorithm algorithm, long limit, long windowMillis) {
        this(key, algorithm, limit, windowMillis, false);
    }
}
