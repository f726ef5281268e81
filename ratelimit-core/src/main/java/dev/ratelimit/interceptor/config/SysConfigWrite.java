package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.RuleId;
import org.jspecify.annotations.Nullable;

/**
 * One field an edit is about to write, shown to an editor's check before anything is written
 * ({@link SysConfigEditor#checkedBy}).
 *
 * @param field the field
 * @param value its new value, {@code null} to remove it
 * @param rule  the rule or endpoint the field belongs to, as the edit named it (a knob, plan or exception of
 *              a rule, a {@code dyn} rule of an endpoint); {@code null} for a field every app shares (the
 *              switches, whitelists, deny list, {@code dynuri} patterns) or one named only by its text
 */
public record SysConfigWrite(String field, @Nullable String value, @Nullable RuleId rule) {
}
