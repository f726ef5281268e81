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

    public LimitDefinition {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1 in rule " + module + "." + rule + ", was " + count);
        }
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("the window must be at least 1 second in rule " + module + "." + rule
                    + ", was " + windowSeconds + "s");
        }
    }

    /** The rule's id in the config hash: {@code <module>.<rule>}. */
    public String id() {
        return module + "." + rule;
    }

    public LimitDefinition withLimit(long newCount, long newWindowSeconds) {
        if (newCount == count && newWindowSeconds == windowSeconds) {
            return this;
        }
        return new LimitDefinition(module, rule, newCount, newWindowSeconds, dimension, algorithm, key, messageKey);
    }
}
