package dev.ratelimit.bench;

import java.time.Duration;

/**
 * The one limit every contender is given in a run, so that all of them decide the same question.
 * Windows of one second keep the state of the logging algorithms (ours and Redisson's) as small as
 * the decision rate allows.
 */
public enum BenchLimit {

    /** Never reached: the run measures what a decision costs. */
    ALLOW(1_000_000_000L, Duration.ofSeconds(1)),
    /** Reached within a millisecond on a hot key: nearly every decision is a rejection. */
    REJECT(1_000L, Duration.ofSeconds(1)),
    /** Counters that outlive a measurement of their memory. */
    LONG_WINDOW(1_000L, Duration.ofHours(1));

    private final long count;
    private final Duration window;

    BenchLimit(long count, Duration window) {
        this.count = count;
        this.window = window;
    }

    /** Requests admitted per window. */
    public long count() {
        return count;
    }

    public Duration window() {
        return window;
    }
}
