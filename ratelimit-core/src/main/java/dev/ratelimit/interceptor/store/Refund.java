package dev.ratelimit.interceptor.store;

/**
 * A request given back to a counter: it was admitted, and so counted, but its response did not match
 * its limit's {@code countWhen}; or, for a concurrency limit, it ended and releases its lease.
 *
 * @param request    the counter request the store decided
 * @param reservedAt the {@link Decision#decidedAt()} of that decision, which tells the refund whether the
 *                   request's window is still the current one
 * @param undone     told, by a store that counts requests per window, which counts of the window the refund
 *                   undid: the limit advisor's demand takes them back
 */
public record Refund(CounterRequest request, long reservedAt, Undone undone) {

    /** A refund whose undone counts nobody needs. */
    public Refund(CounterRequest request, long reservedAt) {
        this(request, reservedAt, Undone.NONE);
    }

    /** What a fixed window's refund undid. */
    @FunctionalInterface
    public interface Undone {

        /** Nobody listens. */
        Undone NONE = (above, upTo) -> { };

        /**
         * The window's counts in {@code (above, upTo]} are counted no more: its next requests are told them again.
         * Called once per refund that gave units back, on the store's thread: an implementation only takes note.
         */
        void counts(long above, long upTo);
    }
}
