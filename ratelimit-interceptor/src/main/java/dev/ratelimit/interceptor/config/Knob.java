package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.Locale;

/**
 * What an operator can set of a rule in the config hash, each in the field {@code <rule>.<suffix>}:
 * its switch, count, window, mode and penalty. A rule's plans and client exceptions are keyed fields of
 * their own ({@link SysConfigFields#plan}, {@link SysConfigFields#exception}).
 */
public enum Knob {

    /** {@code 1}/{@code 0}: whether the rule limits at all. */
    CHECK("check"),
    /** Requests admitted per window. */
    COUNT("count"),
    /** The window in seconds: the field is {@code <rule>.interval}, as the annotation's attribute. */
    WINDOW("interval"),
    /** {@code enforce}, or {@code shadow}: denials are only logged and metered. */
    MODE("mode"),
    /** How long a denied client stays denied: {@code <seconds>}, {@code <first>..<longest>}, or {@code 0}. */
    PENALTY("penalty");

    private final String suffix;

    Knob(String suffix) {
        this.suffix = "." + suffix;
    }

    /** The knob's config field of a rule. */
    public String field(RuleId rule) {
        return rule + suffix;
    }

    /** The knob's name in documents and views: {@code check}, {@code count}, {@code window}, ... */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code .check}, {@code .interval}, ...: what a field of this knob ends with. */
    String suffix() {
        return suffix;
    }

    /** The knob of a field, or {@code null} when the field is no rule's knob. */
    static Knob ofField(String field) {
        for (Knob knob : values()) {
            if (field.endsWith(knob.suffix)) {
                return knob;
            }
        }
        return null;
    }

    /** The knob a document calls {@code key}, or {@code null}. */
    public static Knob ofKey(String key) {
        for (Knob knob : values()) {
            if (knob.key().equals(key)) {
                return knob;
            }
        }
        return null;
    }
}
