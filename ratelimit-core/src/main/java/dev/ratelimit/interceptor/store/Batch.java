package dev.ratelimit.interceptor.store;

/**
 * Units a store counted beyond an admitted request's cost, for the instance that asked ({@link BatchRequest})
 * to admit its next requests from without asking again. They are counted already: one that is never used
 * is given back by a {@link Refund} of the request that took it.
 *
 * @param units         how many, 0 when there was no room to share
 * @param window        which window of the counter they belong to (the store's number for it; the same for
 *                      two batches of one window); a batch of another window voids them
 * @param goodForMillis how long after the decision they may be used: until their window ends
 */
public record Batch(long units, long window, long goodForMillis) {

    /** Nothing taken. */
    public static final Batch NONE = new Batch(0, 0, 0);
}
