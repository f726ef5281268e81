package dev.ratelimit.console.denylist;

import java.time.Duration;
import java.time.Instant;

/** The durations an operator picks a denial's end from; {@link #FOREVER} lasts until it is removed. */
public enum DenyDuration {
    MINUTES_15("15m", Duration.ofMinutes(15)),
    HOUR("1h", Duration.ofHours(1)),
    DAY("24h", Duration.ofHours(24)),
    WEEK("7d", Duration.ofDays(7)),
    FOREVER("forever", null);

    private final String label;
    private final Duration length;

    DenyDuration(String label, Duration length) {
        this.label = label;
        this.length = length;
    }

    /** What forms send, and the end of the message key of its name ({@code console.deny.duration.<label>}). */
    public String label() {
        return label;
    }

    /** The end of a denial made at {@code now}; {@code null} for {@link #FOREVER}. */
    Instant endFrom(Instant now) {
        return length == null ? null : now.plus(length);
    }

    /** The duration a form sent, or {@code null}. */
    static DenyDuration of(String label) {
        for (DenyDuration duration : values()) {
            if (duration.label.equals(label)) {
                return duration;
            }
        }
        return null;
    }
}
