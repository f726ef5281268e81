package dev.ratelimit.interceptor.internal.expression;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * SpEL expressions of the app's limits, each parsed once and kept: when the endpoint catalog registers
 * a method, so that a bad one fails the start with the method named, and then read on every request.
 */
public final class ParsedExpressions {

    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final Map<String, Expression> parsed = new ConcurrentHashMap<>();
    private final String kind;

    /** @param kind what the expressions are, for error messages ("key expression") */
    public ParsedExpressions(String kind) {
        this.kind = kind;
    }

    /**
     * The parsed expression.
     *
     * @throws IllegalArgumentException when it does not parse, saying where
     */
    public Expression get(String text) {
        Expression expression = parsed.get(text);
        if (expression != null) {
            return expression;
        }
        try {
            expression = parser.parseExpression(text);
        } catch (ParseException e) {
            throw new IllegalArgumentException(kind + " '" + text + "' does not parse: " + e.getMessage(), e);
        }
        parsed.putIfAbsent(text, expression);
        return expression;
    }
}
