package dev.ratelimit.console.rules;

import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;

/**
 * One annotated rule as the rules page shows it: its description, with what an operator typed into a
 * refused form and who last changed it.
 *
 * @param count     in force, or what the operator typed into a refused form
 * @param window    the same, of the window
 * @param changedBy the operator who last changed one of its knobs, when the audit trail knows
 * @param changedAt when, in the log's zone
 */
public record RuleLine(RuleDescription rule, String count, String window, String changedBy, String changedAt) {

    /** Whether a knob differs from the declaration: an operator's value, kept across deploys. */
    public boolean overridden() {
        return !rule.overridden().isEmpty();
    }

    public boolean shadow() {
        return rule.mode() == RuleMode.SHADOW;
    }

    public String methods() {
        return String.join(", ", rule.httpMethods());
    }

    /** The operator's penalty in place of the declared one, {@code null} when it is as declared. */
    public String penalty() {
        return rule.overridden().contains(Knob.PENALTY) ? rule.text(Knob.PENALTY) : null;
    }
}
