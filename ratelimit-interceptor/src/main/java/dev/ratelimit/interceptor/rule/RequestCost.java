package dev.ratelimit.interceptor.rule;

/**
 * What one request of a limit weighs: a fixed number of units, or a SpEL expression on the request
 * (the number of items of a batch) evaluated for each request.
 *
 * @param fixed      the units of every request, when there is no expression; at least 1
 * @param expression the expression, else empty
 */
public record RequestCost(long fixed, String expression) {

    /** The default: every request takes one unit. */
    public static final RequestCost ONE = new RequestCost(1, "");

    public RequestCost {
        if (fixed < 1) {
            throw new IllegalArgumentException("cost must be at least 1, was " + fixed);
        }
    }

    public boolean isExpression() {
        return !expression.isEmpty();
    }

    /** The expression, or the fixed cost as a number; {@code null} for one unit, the default. */
    public String describe() {
        return isExpression() ? expression : fixed == 1 ? null : Long.toString(fixed);
    }
}
