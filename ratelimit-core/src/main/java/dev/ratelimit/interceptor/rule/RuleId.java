package dev.ratelimit.interceptor.rule;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collection;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The identity of a rule or an endpoint: its module and its name within the module. Written
 * {@code <module>.<rule>} wherever a rule is named as text (config fields, the API index, the logs),
 * and only by {@link #toString()}. The text is kept, since the request path looks rules up by it.
 *
 * <p>Two ids are equal when module and rule are: module {@code demo} with rule {@code A.b} is not module
 * {@code demo.A} with rule {@code b}, although both are written {@code demo.A.b}. Where a text must be read
 * back as an id, it is read against the ids known ({@code RulesInForce#resolve}), never split by guessing.
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
     * text is read only when exactly one known module starts it; {@code null} when none does, or when
     * several do ({@code demo} and {@code demo.A} both start {@code demo.A.b}: the text is ambiguous).
     */
    public static @Nullable RuleId parse(String text, Collection<String> modules) {
        String module = null;
        for (String candidate : modules) {
            if (text.length() > candidate.length() + 1 && text.startsWith(candidate)
                    && text.charAt(candidate.length()) == '.') {
                if (module != null) {
                    return null;
                }
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
        // Equal texts split at the same place are equal modules and rules.
        return other instanceof RuleId id && text.equals(id.text) && module.length() == id.module.length();
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public int compareTo(RuleId other) {
        int byText = text.compareTo(other.text);
        return byText != 0 ? byText : Integer.compare(module.length(), other.module.length());
    }
}
