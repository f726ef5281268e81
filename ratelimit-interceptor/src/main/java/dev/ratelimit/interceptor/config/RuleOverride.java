package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.rule.LimitDefinition;

/**
 * What the config hash says about one rule: {@code <module>.<rule>.check|count|interval|block}.
 * {@code null} count, interval or penalty means "as declared".
 */
public record RuleOverride(boolean enabled, Long count, Long intervalSeconds, Penalty penalty) {

    public static final RuleOverride NONE = new RuleOverride(true, null, null, null);

    public RuleOverride(boolean enabled, Long count, Long intervalSeconds) {
        this(enabled, count, intervalSeconds, null);
    }

    /**
     * The limit with this override applied. The parser checked the override against the declaration it
     * knew ({@code declared.*}); one that does not fit the annotation in force (a hand-edited hash
     * without declarations) leaves the limit as declared rather than failing requests.
     */
    public LimitDefinition applyTo(LimitDefinition limit) {
        long newCount = count != null ? count : limit.count();
        long newInterval = intervalSeconds != null ? intervalSeconds : limit.windowSeconds();
        LimitDefinition penalised = penalty == null ? limit : limit.withPenalty(penalty);
        try {
            LimitDefinition.check(newCount, newInterval);
        } catch (IllegalArgumentException e) {
            return penalised;
        }
        return penalised.withLimit(newCount, newInterval);
    }

    RuleOverride withEnabled(boolean value) {
        return new RuleOverride(value, count, intervalSeconds, penalty);
    }

    RuleOverride withLimit(Long newCount, Long newInterval) {
        return new RuleOverride(enabled, newCount, newInterval, penalty);
    }

    RuleOverride withPenalty(Penalty newPenalty) {
        return new RuleOverride(enabled, count, intervalSeconds, newPenalty);
    }
}
