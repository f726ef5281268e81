package dev.ratelimit.interceptor.store;

/**
 * A store's answer for one counter.
 *
 * @param allowed          whether the request is admitted
 * @param count            requests per window
 * @param remaining        requests still admitted right now after this one
 * @param retryAfterMillis time from now until the next request is admitted: 0 while {@code remaining > 0};
 *                         a request sent exactly then is admitted (unless others took the room first)
 * @param resetMillis      time from now until the whole quota is back
 * @param decidedAt        the store's time of the decision (ms): Redis' clock for the Redis store; it names
 *                         the request to a {@link RateLimitStore#refund refund}
 */
public record Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                       long decidedAt) {

    /**
     * When nothing is left, the time until a request is admitted again; otherwise the time until the
     * whole quota is back: what a client waits for, and the {@code t} of the {@code RateLimit} field.
     */
    public long resetOrRetryMillis() {
        return remaining > 0 ? resetMillis : retryAfterMillis;
    }
}
