package dev.ratelimit.interceptor;

/** How a counter decides. */
public enum Algorithm {
    /** Counts per window that starts with the first request; cheapest, allows a burst at window edges. */
    FIXED_WINDOW,
    /** Weighted two-window counter; smooths the edge burst at constant memory. */
    SLIDING_WINDOW,
    /** Exact log of request times; exact, memory grows with the count. */
    SLIDING_LOG,
    /** Token bucket (GCRA): bursts up to the count, refills steadily. */
    TOKEN_BUCKET,
    /**
     * Not a rate: at most {@code count} requests of one identity running at once, across all instances. A
     * request holds a slot from its admission until its response is complete; its window is its lease, how
     * long a slot outlives an instance that died holding it ({@code ratelimit.concurrency.lease}).
     */
    CONCURRENCY
}
