package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.expression.ParsedExpressions;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The {@code countWhen} conditions of limits, read on the finished response: the response is the root
 * object, with the variables {@code #status}, {@code #response} and {@code #request}. Expressions come
 * from the app's own annotations, never from a request or the config hash.
 */
public class CountWhenConditions {

    private static final Logger log = LoggerFactory.getLogger(CountWhenConditions.class);

    private final ParsedExpressions parsed = new ParsedExpressions("countWhen expression");
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /**
     * Parses and keeps an expression.
     *
     * @throws IllegalArgumentException when it does not parse, saying where
     */
    public void parse(String expression) {
        parsed.get(expression);
    }

    /**
     * Whether the request stays counted. An expression that fails or gives no boolean counts it, with
     * one warning per expression: a limit that cannot tell errs on its own side.
     *
     * @param status the status the client gets
     */
    boolean counts(String expression, int status, HttpServletRequest request, HttpServletResponse response) {
        StandardEvaluationContext context = new StandardEvaluationContext(response);
        context.setVariable("status", status);
        context.setVariable("response", response);
        context.setVariable("request", request);
        try {
            Object value = parsed.get(expression).getValue(context);
            if (value instanceof Boolean matches) {
                return matches;
            }
            throw new IllegalStateException("gave " + value + ", not true or false");
        } catch (RuntimeException e) {
            if (reportedFailures.add(expression)) {
                log.warn("Rate limit countWhen expression '{}' failed; such requests stay counted: {}", expression,
                        e.toString());
            }
            return true;
        }
    }
}
