package dev.ratelimit.console;

import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.ConsoleOperator;
import jakarta.servlet.http.HttpServletRequest;

/** The operator of a console request, as the access policy named them, with their role and modules. */
public final class Operators {

    private Operators() {
    }

    public static ConsoleOperator of(HttpServletRequest request) {
        if (!(request.getAttribute(ConsoleFilter.OPERATOR_ATTRIBUTE) instanceof ConsoleOperator operator)) {
            throw new IllegalStateException("Console request without an operator: the console filter did not run");
        }
        return operator;
    }
}
