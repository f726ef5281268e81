package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.LimitDefinition;

/**
 * What the config hash says about one rule: {@code <module>.<rule>.check|count|interval}.
 * {@code null} count or interval means "as declared".
 */
public record RuleOverride(boolean enabled, Long count, Long intervalSeconds) {

    public static final RuleOverride NONE = new RuleOverride(true, null, null);

    /** The limit with this override applied. */
    public LimitDefinition applyTo(LimitDefinition limit) {
        return limit.withLimit(count != null ? count : limit.count(),
                intervalSeconds != null ? intervalSeconds : limit.windowSeconds());
    }

    RuleOverride withEnabled(boolean value) {
        return new RuleOverride(value, count, intervalSeconds);
    }

    RuleOverride withCount(long value) {
        return new RuleOverride(enabled, value, intervalSeconds);
    }

    RuleOverride withInterval(long value) {
        return new RuleOverride(enabled, count, value);
    }
}
