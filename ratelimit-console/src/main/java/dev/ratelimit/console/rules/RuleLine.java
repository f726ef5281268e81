package dev.ratelimit.console.rules;

import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

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

    /** The knobs the rules list edits in place; the rule page edits the others. */
    static final Set<Knob> LISTED = Set.copyOf(EnumSet.of(Knob.CHECK, Knob.COUNT, Knob.WINDOW, Knob.MODE));
    /** The others, for a refusal that names them. */
    static final String PAGE_KNOBS = Arrays.stream(Knob.values()).filter(knob -> !LISTED.contains(knob))
            .map(Knob::key).collect(Collectors.joining(", "));

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

    /** The knobs the rule page edits: each with the operator's value in place of the declared one, or as declared. */
    public List<KnobLine> pageKnobs() {
        return Arrays.stream(Knob.values()).filter(knob -> !LISTED.contains(knob))
                .map(knob -> new KnobLine(knob.key(), rule.overridden().contains(knob) ? rule.text(knob) : null,
                        rule.declaredText(knob)))
                .toList();
    }

    /**
     * @param value    the operator's value, {@code null} while it is as declared
     * @param declared the declared value
     */
    public record KnobLine(String key, String value, String declared) {
    }
}
