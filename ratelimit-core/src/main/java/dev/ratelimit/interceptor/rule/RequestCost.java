package dev.ratelimit.interceptor.rule;

import org.jspecify.annotations.Nullable;

/**
 * What one request of a limit weighs: a fixed number of units, or a SpEL expression on the request
 * (the number of items of a batch) evaluated for each request; and, when what it weighs is known only once
 * it is done, the SpEL expression on the finished response that says it: the first is then the estimate.
 *
 * @param fixed        the units of every request, when there is no expression; at least 1
 * @param expression   the expression, else empty
 * @param fromResponse the expression on the response of what the request used ({@code costFromResponse}),
 *                     else empty
 */
public record RequestCost(long fixed, String expression, String fromResponse) {

    /** The default: every request takes one unit. */
    public static final RequestCost ONE = new RequestCost(1, "");

    public RequestCost {
        if (fixed < 1) {
            throw new IllegalArgumentException("cost must be at least 1, was " + fixed);
        }
    }

    /** A cost known before the handler runs. */
    public RequestCost(long fixed, String expression) {
        this(fixed, expression, "");
    }

    public boolean isExpression() {
        return !expression.isEmpty();
    }

    /** Whether the cost is an estimate, settled once the response says what the request used. */
    public boolean settles() {
        return !fromResponse.isEmpty();
    }

    /**
     * The units a {@code costFromResponse}'s value says a request used: a whole number of 0 or more, as a
     * number or as text of digits (a header).
     *
     * @throws IllegalArgumentException for any other value, saying what it was
     */
    public static long used(Object value) {
        long units;
        try {
            units = value instanceof Number number && number.doubleValue() == number.longValue() ? number.longValue()
                    : Long.parseLong(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("gave " + value + ", not a whole number", e);
        }
        if (units < 0) {
            throw new IllegalArgumentException("gave " + units + ", less than 0");
        }
        return units;
    }

    /** The expression, or the fixed cost as a number; {@code null} for one unit, the default. */
    public @Nullable String describe() {
        return isExpression() ? expression : fixed == 1 ? null : Long.toString(fixed);
    }
}
