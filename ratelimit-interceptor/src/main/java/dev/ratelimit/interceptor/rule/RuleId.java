package dev.ratelimit.interceptor.rule;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collection;
import java.util.Objects;

/**
 * The identity of a rule or an endpoint: its module and its name within the module. Written
 * {@code <module>.<rule>} wherever a rule is named as text (config fields, the API index, the logs),
 * and only by {@link #toString()}. The text is kept, since the request path looks rules up by it.
 */
public final class RuleId implements Comparable<RuleId> {

    private final String module;
    private final String rule;
    private final String text;

    private RuleId(String module, String rule) {
        this.module = Objects.requireNonNull(module, "module");
        this.rule = Objects.requireNonNull(rule, "rule");
        this.text = module + "." + rule;
    }

    public static RuleId of(String module, String rule) {
        return new RuleId(module, rule);
    }

    /**
     * The id a text names, read against the modules known: a module name may itself hold dots, so the
     * longest known module the text starts with is the module; {@code null} when it names none.
     */
    public static RuleId parse(String text, Collection<String> modules) {
        String module = null;
        for (String candidate : modules) {
            if (text.length() > candidate.length() + 1 && text.startsWith(candidate)
                    && text.charAt(candidate.length()) == '.'
                    && (module == null || candidate.length() > module.length())) {
                module = candidate;
            }
        }
        return module == null ? null : new RuleId(module, text.substring(module.length() + 1));
    }

    public String module() {
        return module;
    }

    public String rule() {
        return rule;
    }

    /** {@code <module>.<rule>}. */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RuleId id && text.equals(id.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public int compareTo(RuleId other) {
        return text.compareTo(other.text);
    }
}
