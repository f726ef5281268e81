package dev.ratelimit.console.live;

import dev.ratelimit.interceptor.stats.TrafficGranularity;
import java.time.Duration;

/**
 * How far back the live charts look, and in which buckets: each span reads the finest statistics kept
 * that long, at most a few thousand buckets a module. The statistics outlive every instance (a restart
 * loses nothing), up to the retention of the hour buckets.
 */
public enum LiveSpan {

    HOUR("1h", Duration.ofHours(1), TrafficGranularity.TEN_SECONDS),
    SIX_HOURS("6h", Duration.ofHours(6), TrafficGranularity.MINUTE),
    DAY("24h", Duration.ofHours(24), TrafficGranularity.MINUTE),
    WEEK("7d", Duration.ofDays(7), TrafficGranularity.HOUR),
    MONTH("30d", Duration.ofDays(30), TrafficGranularity.HOUR),
    QUARTER("90d", Duration.ofDays(90), TrafficGranularity.HOUR);

    private final String label;
    private final Duration length;
    private final TrafficGranularity step;

    LiveSpan(String label, Duration length, TrafficGranularity step) {
        this.label = label;
        this.length = length;
        this.step = step;
    }

    /** As the page and {@code live.json?span=} name it, e.g. {@code 24h}. */
    public String label() {
        return label;
    }

    Duration length() {
        return length;
    }

    TrafficGranularity step() {
        return step;
    }

    /** The span a label names; the hour for anything else. */
    public static LiveSpan of(String label) {
        for (LiveSpan span : values()) {
            if (span.label.equals(label)) {
                return span;
            }
        }
        return HOUR;
    }
}
