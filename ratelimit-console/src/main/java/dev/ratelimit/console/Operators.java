package dev.ratelimit.console;

import dev.ratelimit.console.access.ConsoleFilter;
import jakarta.servlet.http.HttpServletRequest;

/** The operator of a console request, as the access policy named them. */
public final class Operators {

    private Operators() {
    }

    public static String of(HttpServletRequest request) {
        Object operator = request.getAttribute(ConsoleFilter.OPERATOR_ATTRIBUTE);
        if (operator == null) {
            throw new IllegalStateException("Console request without an operator: the console filter did not run");
        }
        return operator.toString();
    }
}
