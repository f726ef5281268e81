package dev.ratelimit.interceptor.stats;

import java.time.Duration;

/** A bucket size of the shared traffic statistics, and how long Redis keeps its buckets. */
public enum TrafficGranularity {

    /** For the live charts: the last minutes and hours. */
    TEN_SECONDS("10s", Duration.ofSeconds(10), Duration.ofHours(6)),

    /** For today and yesterday, a day of 1,440 points. */
    MINUTE("1m", Duration.ofMinutes(1), Duration.ofHours(48)),

    /** For weeks and months. */
    HOUR("1h", Duration.ofHours(1), Duration.ofDays(92));

    private final String label;
    private final Duration size;
    private final Duration retention;

    TrafficGranularity(String label, Duration size, Duration retention) {
        this.label = label;
        this.size = size;
        this.retention = retention;
    }

    /** The part of the key that names it, e.g. {@code 10s}. */
    public String label() {
        return label;
    }

    public Duration size() {
        return size;
    }

    public Duration retention() {
        return retention;
    }

    /** The start of the bucket that holds {@code epochSecond}. */
    public long bucketStart(long epochSecond) {
        long seconds = size.toSeconds();
        return Math.floorDiv(epochSecond, seconds) * seconds;
    }
}
