package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The value of a {@code dyn.*} or {@code dynuri.*} field: {@code <interval>} (one request per interval)
 * or {@code <count>/<interval>}, the interval in seconds, optionally followed by who is counted
 * together ({@code user}, the default; {@code ip}; {@code method}, the endpoint as a whole) and the
 * algorithm ({@code fixed_window}, the default; {@code sliding_window}, {@code sliding_log},
 * {@code token_bucket}): {@code 5/60}, {@code 5/60 ip}, {@code 100/60 method token_bucket}. Values
 * written before the dimension and algorithm existed mean what they meant: per user, fixed window.
 */
public record LimitSpec(long count, long intervalSeconds, Dimension dimension, Algorithm algorithm) {

    /** The dimensions a dynamic rule can count by; the others need an annotation (a key, a shared counter). */
    public static final Set<Dimension> DIMENSIONS = EnumSet.of(Dimension.USER, Dimension.IP, Dimension.METHOD);

    public LimitSpec {
        LimitDefinition.check(count, intervalSeconds);
        if (!DIMENSIONS.contains(dimension)) {
            throw new InvalidValueException("ratelimit.config.limit.dimension", String.valueOf(dimension));
        }
    }

    /** Per user, fixed window. */
    public LimitSpec(long count, long intervalSeconds) {
        this(count, intervalSeconds, Dimension.USER, Algorithm.FIXED_WINDOW);
    }

    /**
     * Parses {@code "60"}, {@code "5/60"}, {@code "5/60 ip"} or {@code "5/60 ip sliding_window"}, in any case.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static LimitSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidValueException("ratelimit.config.limit", "");
        }
        String[] words = value.strip().split("\\s+");
        String rate = words[0];
        int slash = rate.indexOf('/');
        long count;
        long interval;
        try {
            if (words.length > 3) {
                throw new IllegalArgumentException();
            }
            count = slash < 0 ? 1 : positive(rate.substring(0, slash));
            interval = positive(slash < 0 ? rate : rate.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("ratelimit.config.limit", abbreviate(value.strip()));
        }
        Dimension dimension = words.length > 1 ? dimension(words[1]) : Dimension.USER;
        Algorithm algorithm = words.length > 2 ? algorithm(words[2]) : Algorithm.FIXED_WINDOW;
        return new LimitSpec(count, interval, dimension, algorithm);
    }

    /** The canonical text of this spec, as written to the config hash: the defaults are left out. */
    public String format() {
        String rate = count + "/" + intervalSeconds;
        if (algorithm != Algorithm.FIXED_WINDOW) {
            return rate + " " + lower(dimension) + " " + lower(algorithm);
        }
        return dimension == Dimension.USER ? rate : rate + " " + lower(dimension);
    }

    private static Dimension dimension(String word) {
        for (Dimension candidate : DIMENSIONS) {
            if (candidate.name().equalsIgnoreCase(word)) {
                return candidate;
            }
        }
        throw new InvalidValueException("ratelimit.config.limit.dimension", abbreviate(word));
    }

    private static Algorithm algorithm(String word) {
        for (Algorithm candidate : Algorithm.values()) {
            if (candidate.name().equalsIgnoreCase(word)) {
                return candidate;
            }
        }
        throw new InvalidValueException("ratelimit.config.limit.algorithm", abbreviate(word));
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
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
