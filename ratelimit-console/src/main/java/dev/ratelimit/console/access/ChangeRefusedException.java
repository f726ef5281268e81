package dev.ratelimit.console.access;

import java.util.Locale;

/**
 * A change the operator's role or modules do not allow: the console answers 403, and the audit trail
 * has recorded the attempt. Not an {@link IllegalArgumentException}, which the forms show as a value to
 * correct: nothing the operator types makes this change theirs.
 */
public class ChangeRefusedException extends RuntimeException {

    public ChangeRefusedException(ConsoleOperator operator, String what) {
        super(operator.name() + " (" + operator.role().name().toLowerCase(Locale.ROOT)
                + (operator.modules().isEmpty() ? "" : " of " + operator.modules()) + ") may not change " + what);
    }
}
