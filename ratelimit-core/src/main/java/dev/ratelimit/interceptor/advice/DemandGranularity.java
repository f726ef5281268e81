package dev.ratelimit.interceptor.advice;

import java.time.Duration;

/**
 * A bucket size of the recorded demand, and how long Redis keeps its buckets: fine for the last hours and
 * days, coarser for the week. Every write goes to both.
 */
public enum DemandGranularity {

    TEN_MINUTES("10m", Duration.ofMinutes(10), Duration.ofDays(2)),

    HOUR("1h", Duration.ofHours(1), Duration.ofDays(8));

    private final String label;
    private final Duration size;
    private final Duration retention;

    DemandGranularity(String label, Duration size, Duration retention) {
        this.label = label;
        this.size = size;
        this.retention = retention;
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

    long bucketStart(long epochSecond) {
        long seconds = size.toSeconds();
        return Math.floorDiv(epochSecond, seconds) * seconds;
    }

    /** The finest granularity that still holds {@code since} back from now. */
    static DemandGranularity covering(Duration since) {
        return since.compareTo(TEN_MINUTES.retention) <= 0 ? TEN_MINUTES : HOUR;
    }
}
