package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * An operator's exception for one client of one rule, the value of {@code <rule>.exception.<identity>}:
 * {@code <count>/<interval> until <instant>}, e.g. {@code 500/60 until 2026-12-08T00:00:00Z}. Until then
 * the client gets this count and window instead of its plan's or the annotation's. Every exception ends:
 * one without an end would be forgotten in the hash.
 */
public record IdentityException(long count, long windowSeconds, Instant until) {

    private static final String UNTIL = " until ";

    public IdentityException {
        LimitDefinition.check(count, windowSeconds);
    }

    /**
     * Parses the field's value.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static IdentityException parse(String value) {
        int until = value == null ? -1 : value.indexOf(UNTIL);
        if (until < 0) {
            throw new InvalidValueException("ratelimit.config.exception", LimitSpec.abbreviate(String.valueOf(value)));
        }
        LimitSpec limit = LimitSpec.parse(value.substring(0, until).strip());
        try {
            return new IdentityException(limit.count(), limit.windowSeconds(),
                    Instant.parse(value.substring(until + UNTIL.length()).strip()));
        } catch (DateTimeParseException e) {
            throw new InvalidValueException("ratelimit.config.exception", LimitSpec.abbreviate(value));
        }
    }

    public String format() {
        return count + "/" + windowSeconds + UNTIL + until;
    }

    public boolean inForceAt(Instant now) {
        return now.isBefore(until);
    }
}
