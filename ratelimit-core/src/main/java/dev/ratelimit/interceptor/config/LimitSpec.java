package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Penalty;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The value of a {@code dyn.*} or {@code dynuri.*} field: {@code <interval>} (one request per interval)
 * or {@code <count>/<interval>}, the interval in seconds, optionally followed by who is counted
 * together ({@code user}, the default; {@code ip}; {@code method}, the endpoint as a whole) and the
 * algorithm ({@code fixed_window}, the default; {@code sliding_window}, {@code sliding_log},
 * {@code token_bucket}): {@code 5/60}, {@code 5/60 ip}, {@code 100/60 method token_bucket}. Values
 * written before the dimension and algorithm existed mean what they meant: per user, fixed window.
 * The interval can be a calendar period, {@code day}, {@code week} or {@code month} (a quota in
 * {@code ratelimit.quota.zone}, fixed window: {@code 1000/day}), and a penalty can follow,
 * {@code penalty=<seconds>} or {@code penalty=<first>..<longest>} ({@code 5/60 ip penalty=300..3600}). The
 * words after the rate come in any order.
 *
 * @param period  a calendar quota's period, else {@link QuotaPeriod#NONE}; then {@code windowSeconds} is
 *                its longest length
 * @param penalty the block of a denied client, else {@link Penalty#NONE}
 */
public record LimitSpec(long count, long windowSeconds, Dimension dimension, Algorithm algorithm, QuotaPeriod period,
                        Penalty penalty) {

    /** The dimensions a dynamic rule can count by; the others need an annotation (a key, a shared counter). */
    public static final Set<Dimension> DIMENSIONS = EnumSet.of(Dimension.USER, Dimension.IP, Dimension.METHOD);

    private static final String PENALTY = "penalty=";
    /**
     * The algorithms a limit's value may name, as an operator writes them, for the messages that list them (so that
     * a new one changes no message): every one, and those of a rate (what a rule's algorithm may become).
     */
    private static final String ALGORITHMS = names(EnumSet.allOf(Algorithm.class));
    private static final String RATE_ALGORITHMS = names(EnumSet.complementOf(EnumSet.of(Algorithm.CONCURRENCY)));

    public LimitSpec {
        LimitDefinition.check(count, windowSeconds);
        if (!DIMENSIONS.contains(dimension)) {
            throw new InvalidValueException("ratelimit.config.limit.dimension", String.valueOf(dimension));
        }
        if (period != QuotaPeriod.NONE && algorithm != Algorithm.FIXED_WINDOW) {
            throw new InvalidValueException("ratelimit.config.limit.algorithm", lower(algorithm) + "/" + lower(period),
                    lower(Algorithm.FIXED_WINDOW));
        }
    }

    public LimitSpec(long count, long windowSeconds, Dimension dimension, Algorithm algorithm) {
        this(count, windowSeconds, dimension, algorithm, QuotaPeriod.NONE, Penalty.NONE);
    }

    /** Per user, fixed window. */
    public LimitSpec(long count, long windowSeconds) {
        this(count, windowSeconds, Dimension.USER, Algorithm.FIXED_WINDOW);
    }

    /**
     * Parses {@code "60"}, {@code "5/60"}, {@code "5/60 ip"} or {@code "5/60 ip sliding_window"}, in any case.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static LimitSpec parse(String value) {
        if (value == null || value.isBlank()) {
            throw invalidLimit("");
        }
        String[] words = value.strip().split("\\s+");
        String rate = words[0];
        int slash = rate.indexOf('/');
        long count;
        long interval;
        QuotaPeriod period;
        try {
            if (words.length > 4) {
                throw new IllegalArgumentException();
            }
            count = slash < 0 ? 1 : positive(rate.substring(0, slash));
            String window = slash < 0 ? rate : rate.substring(slash + 1);
            period = period(window);
            interval = period != QuotaPeriod.NONE ? period.longestSeconds() : positive(window);
        } catch (IllegalArgumentException e) {
            throw invalidLimit(abbreviate(value.strip()));
        }
        Dimension dimension = null;
        Algorithm algorithm = null;
        Penalty penalty = null;
        for (int i = 1; i < words.length; i++) {
            String word = words[i];
            boolean repeated;
            if (word.regionMatches(true, 0, PENALTY, 0, PENALTY.length())) {
                repeated = penalty != null;
                penalty = penalty(word);
            } else if (isAlgorithm(word)) {
                repeated = algorithm != null;
                algorithm = algorithm(word);
            } else {
                repeated = dimension != null;
                dimension = dimension(word);
            }
            if (repeated) {
                throw invalidLimit(abbreviate(value.strip()));
            }
        }
        dimension = dimension == null ? Dimension.USER : dimension;
        algorithm = algorithm == null ? Algorithm.FIXED_WINDOW : algorithm;
        penalty = penalty == null ? Penalty.NONE : penalty;
        return new LimitSpec(count, interval, dimension, algorithm, period, penalty);
    }

    /** This spec with another count, its window, dimension, algorithm, period and penalty kept. */
    public LimitSpec withCount(String count) {
        long parsed;
        try {
            parsed = positive(count);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("ratelimit.config.positive", abbreviate(count.strip()));
        }
        return new LimitSpec(parsed, windowSeconds, dimension, algorithm, period, penalty);
    }

    /** The canonical text of this spec, as written to the config hash: the defaults are left out. */
    public String format() {
        return text(count, windowSeconds, dimension, algorithm, period, penalty);
    }

    /** A limit in the notation of the config hash, whatever its dimension: what views show of any limit. */
    static String text(long count, long windowSeconds, Dimension dimension, Algorithm algorithm, QuotaPeriod period,
                       Penalty penalty) {
        String rate = count + "/" + (period != QuotaPeriod.NONE ? lower(period) : Long.toString(windowSeconds));
        String text;
        if (algorithm != Algorithm.FIXED_WINDOW) {
            text = rate + " " + lower(dimension) + " " + lower(algorithm);
        } else {
            text = dimension == Dimension.USER ? rate : rate + " " + lower(dimension);
        }
        return penalty.applies() ? text + " " + PENALTY + formatPenalty(penalty) : text;
    }

    /** {@code day}, {@code week}, {@code month}, or {@link QuotaPeriod#NONE} for seconds. */
    private static QuotaPeriod period(String window) {
        for (QuotaPeriod candidate : QuotaPeriod.values()) {
            if (candidate != QuotaPeriod.NONE && candidate.name().equalsIgnoreCase(window.strip())) {
                return candidate;
            }
        }
        return QuotaPeriod.NONE;
    }

    /** {@code penalty=<seconds>} or {@code penalty=<first>..<longest>}, each at most a year. */
    private static Penalty penalty(String word) {
        return blocks(word.substring(PENALTY.length()), word);
    }

    /**
     * A penalty as a rule's {@code penalty} field writes it: {@code <seconds>} or {@code <first>..<longest>},
     * each at most a year; {@code 0} for none.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static Penalty parsePenalty(String value) {
        String blocks = value == null ? "" : value.strip();
        return blocks.equals("0") ? Penalty.NONE : blocks(blocks, blocks);
    }

    /** The canonical text of a penalty, as {@link #parsePenalty} reads it. */
    public static String formatPenalty(Penalty penalty) {
        if (!penalty.applies()) {
            return "0";
        }
        long first = penalty.firstBlockMillis() / 1000;
        long longest = penalty.longestMillis() / 1000;
        return longest == first ? Long.toString(first) : first + ".." + longest;
    }

    private static Penalty blocks(String blocks, String shown) {
        try {
            int dots = blocks.indexOf("..");
            long first = positive(dots < 0 ? blocks : blocks.substring(0, dots));
            long longest = dots < 0 ? first : positive(blocks.substring(dots + 2));
            if (longest > LimitDefinition.MAX_WINDOW_SECONDS) {
                throw new IllegalArgumentException();
            }
            return new Penalty(first * 1000, longest * 1000);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("ratelimit.config.limit.penalty", abbreviate(shown));
        }
    }

    private static boolean isAlgorithm(String word) {
        for (Algorithm candidate : Algorithm.values()) {
            if (candidate.name().equalsIgnoreCase(word)) {
                return true;
            }
        }
        return false;
    }

    /** The dimension a word names ({@code ip}), in any case: one of {@link #DIMENSIONS}. */
    static Dimension dimension(String word) {
        for (Dimension candidate : DIMENSIONS) {
            if (candidate.name().equalsIgnoreCase(word)) {
                return candidate;
            }
        }
        throw new InvalidValueException("ratelimit.config.limit.dimension", abbreviate(word));
    }

    /** The algorithm of a rate a word names ({@code sliding_window}), in any case; not a concurrency limit. */
    static Algorithm rateAlgorithm(String word) {
        String name = word.strip();
        for (Algorithm candidate : Algorithm.values()) {
            if (candidate != Algorithm.CONCURRENCY && candidate.name().equalsIgnoreCase(name)) {
                return candidate;
            }
        }
        throw new InvalidValueException("ratelimit.config.limit.algorithm", abbreviate(name), RATE_ALGORITHMS);
    }

    private static Algorithm algorithm(String word) {
        for (Algorithm candidate : Algorithm.values()) {
            if (candidate.name().equalsIgnoreCase(word)) {
                return candidate;
            }
        }
        throw invalidAlgorithm(abbreviate(word));
    }

    /** A value that is no limit; the message names the algorithms a limit may name. */
    private static InvalidValueException invalidLimit(String shown) {
        return new InvalidValueException("ratelimit.config.limit", shown, ALGORITHMS);
    }

    private static InvalidValueException invalidAlgorithm(String shown) {
        return new InvalidValueException("ratelimit.config.limit.algorithm", shown, ALGORITHMS);
    }

    private static String names(Set<Algorithm> algorithms) {
        return algorithms.stream().map(LimitSpec::lower).collect(Collectors.joining(", "));
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
