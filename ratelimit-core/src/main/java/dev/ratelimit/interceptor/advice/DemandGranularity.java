package dev.ratelimit.interceptor.advice;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A bucket size of the recorded demand, how long Redis keeps its buckets and the shortest window of a rule's request
 * counts they hold: fine for the last hours and days, coarser for the week. Every write goes to both.
 */
enum DemandGranularity {

    TEN_MINUTES("10m", Duration.ofMinutes(10), Duration.ofDays(2), 5),

    HOUR("1h", Duration.ofHours(1), Duration.ofDays(8), 30);

    private final String label;
    private final Duration size;
    private final Duration retention;
    private final long shortestWindow;

    DemandGranularity(String label, Duration size, Duration retention, long shortestWindow) {
        this.label = label;
        this.size = size;
        this.retention = retention;
        this.shortestWindow = shortestWindow;
    }

    String label() {
        return label;
    }

    Duration size() {
        return size;
    }

    Duration retention() {
        return retention;
    }

    /**
     * The shortest {@link CountedWindow} kept, in seconds: a bucket holds at most 120 windows of a rule's, few enough for
     * Redis' compact encoding of small hashes.
     */
    long shortestWindow() {
        return shortestWindow;
    }

    /** The requests of {@code windows} in the windows this granularity keeps: the short ones joined. */
    Map<CountedWindow, Long> windows(Map<CountedWindow, Long> windows) {
        Map<CountedWindow, Long> kept = new HashMap<>();
        windows.forEach((window, requests) -> kept.merge(window.atLeast(shortestWindow), requests, Long::sum));
        return kept;
    }

    long bucketStart(long epochSecond) {
        long seconds = size.toSeconds();
        return Math.floorDiv(epochSecond, seconds) * seconds;
    }

    /** The finest granularity that still holds {@code since} back from now. */
    static DemandGranularity covering(Duration since) {
        return since.compareTo(TEN_MINUTES.retention) <= 0 ? TEN_MINUTES : HOUR;
    }
}
