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
 * @param batch            the permits counted for the instance beyond the request's cost, when it asked for
 *                         them ({@link CounterRequest#batch()}); {@link Batch#NONE} otherwise
 */
public record Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                       long decidedAt, Batch batch) {

    /** A decision that took no batch. */
    public Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                    long decidedAt) {
        this(allowed, count, remaining, retryAfterMillis, resetMillis, decidedAt, Batch.NONE);
    }

    /**
     * When nothing is left, the time until a request is admitted again; otherwise the time until the
     * whole quota is back: what a client waits for, and the {@code t} of the {@code RateLimit} field.
     */
    public long resetOrRetryMillis() {
        return remaining > 0 ? resetMillis : retryAfterMillis;
    }
}
