package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Penalty;

/**
 * What the config hash says about one rule's knobs ({@link Knob}): {@code null} count, window or penalty
 * means "as declared".
 */
record RuleOverride(boolean enabled, Long count, Long windowSeconds, Penalty penalty) {

    static final RuleOverride NONE = new RuleOverride(true, null, null, null);

    /**
     * The limit with this override applied. The parser checked the override against the declaration it
     * knew ({@code declared.*}); one that does not fit the annotation in force (a hand-edited hash
     * without declarations) leaves the limit as declared rather than failing requests.
     */
    LimitDefinition applyTo(LimitDefinition limit) {
        long newCount = count != null ? count : limit.count();
        long newWindow = windowSeconds != null ? windowSeconds : limit.windowSeconds();
        LimitDefinition penalised = penalty == null ? limit : limit.withPenalty(penalty);
        try {
            LimitDefinition.check(newCount, newWindow);
        } catch (IllegalArgumentException e) {
            return penalised;
        }
        return penalised.withLimit(newCount, newWindow);
    }

    RuleOverride withEnabled(boolean value) {
        return new RuleOverride(value, count, windowSeconds, penalty);
    }

    RuleOverride withLimit(Long newCount, Long newWindow) {
        return new RuleOverride(enabled, newCount, newWindow, penalty);
    }

    RuleOverride withPenalty(Penalty newPenalty) {
        return new RuleOverride(enabled, count, windowSeconds, newPenalty);
    }
}
