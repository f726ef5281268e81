package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.ratelimit.interceptor.InvalidValueException;
import java.util.Locale;

/**
 * What a rule does with a request it would deny: {@code <module>.<rule>.mode} and {@code global.mode}.
 * Shadow mode lets operators watch a limit (it is counted, logged and metered as "would block")
 * before they enforce it.
 */
public enum RuleMode {

    /** Denied requests are rejected. */
    ENFORCE,

    /** Denied requests pass; the denial is logged and metered only. */
    SHADOW;

    /** The value in the config hash. */
    @JsonValue
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code enforce} or {@code shadow}, in any case.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static RuleMode parse(String value) {
        String text = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "enforce" -> ENFORCE;
            case "shadow" -> SHADOW;
            default -> throw new InvalidValueException("ratelimit.config.mode");
        };
    }
}
