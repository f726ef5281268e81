package dev.ratelimit.interceptor.rule;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;

/**
 * One limit in force: who is counted ({@code dimension}), how many requests ({@code count}) per
 * window ({@code windowSeconds}), by which algorithm. Built from {@code @RateLimit}, a {@code dyn.*}
 * or a {@code dynuri.*} field, with the config hash's overrides applied.
 *
 * @param module      module part of the rule's id
 * @param rule        rule name; {@code module.rule} is the id used in the config hash
 * @param count       requests admitted per window, at least 1
 * @param windowSeconds window length in seconds, at least 1
 * @param key         SpEL expression of a {@link Dimension#CUSTOM} limit, else empty
 * @param messageKey  message key of the rejection text
 */
public record LimitDefinition(String module, String rule, long count, long windowSeconds, Dimension dimension,
                              Algorithm algorithm, String key, String messageKey) {

    public static final String DEFAULT_MESSAGE_KEY = "ratelimit.rejected";

    /**
     * Upper bound of count × window in milliseconds: 2^53, so that the algorithms' integer arithmetic
     * is exact in Lua's double-precision numbers too (10^8 requests per day still fit).
     */
    public static final long MAX_COUNT_TIMES_WINDOW_MILLIS = 1L << 53;

    public LimitDefinition {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1 in rule " + module + "." + rule + ", was " + count);
        }
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("the window must be at least 1 second in rule " + module + "." + rule
                    + ", was " + windowSeconds + "s");
        }
        if (!inRange(count, windowSeconds)) {
            throw new IllegalArgumentException("count " + count + " per " + windowSeconds + "s is too large in rule "
                    + module + "." + rule + ": count × window in ms must stay below 2^53");
        }
    }

    /** Whether count × window (in ms) is within {@link #MAX_COUNT_TIMES_WINDOW_MILLIS}; both at least 1. */
    public static boolean inRange(long count, long windowSeconds) {
        return windowSeconds <= MAX_COUNT_TIMES_WINDOW_MILLIS / 1000
                && count <= MAX_COUNT_TIMES_WINDOW_MILLIS / (windowSeconds * 1000);
    }

    /** The rule's id in the config hash: {@code <module>.<rule>}. */
    public String id() {
        return module + "." + rule;
    }

    /**
     * This limit with another count and window. Values past {@link #MAX_COUNT_TIMES_WINDOW_MILLIS} (an
     * operator's override far beyond any real limit) are lowered to it rather than failing requests.
     */
    public LimitDefinition withLimit(long newCount, long newWindowSeconds) {
        long window = Math.min(newWindowSeconds, MAX_COUNT_TIMES_WINDOW_MILLIS / 1000);
        long limit = Math.min(newCount, MAX_COUNT_TIMES_WINDOW_MILLIS / (window * 1000));
        if (limit == count && window == windowSeconds) {
            return this;
        }
        return new LimitDefinition(module, rule, limit, window, dimension, algorithm, key, messageKey);
    }
}
