package dev.ratelimit.console.audit;

import java.time.Instant;

/**
 * One change an operator made: who, when, which config field, from what to what ({@code null}: absent).
 * A change their role refused is recorded too, its field marked {@value #REFUSED}.
 */
public record AuditEntry(Instant at, String operator, String field, String oldValue, String newValue) {

    /** Starts the field of a change that was refused: {@code refused <field>}. */
    public static final String REFUSED = "refused ";

    /** An attempt to set {@code field} to {@code value} that the operator's role or modules did not allow. */
    public static AuditEntry refused(Instant at, String operator, String field, String value) {
        return new AuditEntry(at, operator, REFUSED + field, null, value);
    }

    public boolean wasRefused() {
        return field.startsWith(REFUSED);
    }

    /** The field the change was about, without the mark of a refusal. */
    public String subject() {
        return wasRefused() ? field.substring(REFUSED.length()) : field;
    }
}
