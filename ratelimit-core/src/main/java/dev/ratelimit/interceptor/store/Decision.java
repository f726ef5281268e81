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
 * @param demand           the client's count in its window once this request is counted, admitted and refused
 *                         requests alike, as the store counted it: what the limit advisor records (for a request
 *                         that took a batch, its own count, the batch's permits the counts after it; for a
 *                         request a permit admitted, the permit's count). 0 when the decision does not say: a near
 *                         cache's denial, a penalty's block, an algorithm that does not count requests per window
 */
public record Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                       long decidedAt, Batch batch, long demand) {

    /** A decision that took no batch and says nothing of the demand. */
    public Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                    long decidedAt) {
        this(allowed, count, remaining, retryAfterMillis, resetMillis, decidedAt, Batch.NONE, 0);
    }

    /** A decision that says nothing of the demand, as stores of an app's own made them before the advisor. */
    public Decision(boolean allowed, long count, long remaining, long retryAfterMillis, long resetMillis,
                    long decidedAt, Batch batch) {
        this(allowed, count, remaining, retryAfterMillis, resetMillis, decidedAt, batch, 0);
    }

    /** The end of the window this decision counted in, in the store's time: what names a client's window. */
    public long windowEnd() {
        return decidedAt + resetMillis;
    }

    /**
     * When nothing is left, the time until a request is admitted again; otherwise the time until the
     * whole quota is back: what a client waits for, and the {@code t} of the {@code RateLimit} field.
     */
    public long resetOrRetryMillis() {
        return remaining > 0 ? resetMillis : retryAfterMillis;
    }
}
