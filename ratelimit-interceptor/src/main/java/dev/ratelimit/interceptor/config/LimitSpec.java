package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.rule.LimitDefinition;

/**
 * The value of a {@code dyn.*} or {@code dynuri.*} field: {@code <interval>} (one request per interval)
 * or {@code <count>/<interval>}, the interval in seconds.
 */
public record LimitSpec(long count, long intervalSeconds) {

    public LimitSpec {
        LimitDefinition.check(count, intervalSeconds);
    }

    /**
     * Parses {@code "60"} or {@code "5/60"}.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static LimitSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidValueException("ratelimit.config.limit", "");
        }
        String text = value.strip();
        int slash = text.indexOf('/');
        long count;
        long interval;
        try {
            count = slash < 0 ? 1 : positive(text.substring(0, slash));
            interval = positive(slash < 0 ? text : text.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("ratelimit.config.limit", abbreviate(text));
        }
        return new LimitSpec(count, interval);
    }

    /** The canonical text of this spec, as written to the config hash. */
    public String format() {
        return count + "/" + intervalSeconds;
    }

    private static long positive(String digits) {
        long value = Long.parseLong(digits.strip());
        if (value < 1) {
            throw new IllegalArgumentException();
        }
        return value;
    }

    /**
     * At most 40 characters of a value for a message, control characters shown as {@code ?}: config
     * values end up in log lines, where a line break would forge a line.
     */
    static String abbreviate(String text) {
        String shown = text.length() <= 40 ? text : text.substring(0, 40) + "...";
        return shown.chars().anyMatch(c -> c < ' ' || c == 0x7f) ? shown.replaceAll("[\\x00-\\x1f\\x7f]", "?") : shown;
    }
}
