package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.ResponseCost;
import dev.ratelimit.interceptor.internal.expression.ParsedExpressions;
import dev.ratelimit.interceptor.rule.RequestCost;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The expressions of limits on the finished response: a {@code countWhen} condition, and a
 * {@code costFromResponse}, what the request used. The response is the root object, with the variables
 * {@code #status}, {@code #response}, {@code #request} and {@code #reported} (what the handler reported
 * through {@link ResponseCost}, or {@code null}). Expressions come from the app's own annotations, never
 * from a request or the config hash.
 */
public class ResponseExpressions {

    private static final Logger log = LoggerFactory.getLogger(ResponseExpressions.class);

    private final ParsedExpressions parsed;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /** @param parsed where the expressions on responses are parsed and kept */
    public ResponseExpressions(ParsedExpressions parsed) {
        this.parsed = parsed;
    }

    /**
     * Whether the request stays counted by a {@code countWhen}. An expression that fails or gives no boolean
     * counts it, with one warning per expression: a limit that cannot tell errs on its own side.
     *
     * @param status the status the client gets
     */
    boolean counts(String expression, int status, HttpServletRequest request, HttpServletResponse response) {
        try {
            Object value = parsed.get(expression).getValue(context(status, request, response));
            if (value instanceof Boolean matches) {
                return matches;
            }
            throw new IllegalStateException("gave " + value + ", not true or false");
        } catch (RuntimeException e) {
            warnOnce(expression, "countWhen", "such requests stay counted", e);
            return true;
        }
    }

    /**
     * The units the request used, as a {@code costFromResponse} says: a whole number of 0 or more (a number,
     * or text of digits such as a header), else {@code null}, which keeps the estimate: silently for a
     * {@code null}, with one warning per expression for anything else or a failure.
     */
    @Nullable Long cost(String expression, int status, HttpServletRequest request, HttpServletResponse response) {
        try {
            Object value = parsed.get(expression).getValue(context(status, request, response));
            if (value == null) {
                return null;
            }
            return RequestCost.used(value);
        } catch (RuntimeException e) {
            warnOnce(expression, "costFromResponse", "such requests keep their estimate", e);
            return null;
        }
    }

    private static StandardEvaluationContext context(int status, HttpServletRequest request,
                                                     HttpServletResponse response) {
        StandardEvaluationContext context = new StandardEvaluationContext(response);
        context.setVariable("status", status);
        context.setVariable("response", response);
        context.setVariable("request", request);
        context.setVariable("reported", ResponseCost.reported(request));
        return context;
    }

    private void warnOnce(String expression, String attribute, String outcome, RuntimeException e) {
        if (reportedFailures.add(expression)) {
            log.warn("Rate limit {} expression '{}' failed; {}: {}", attribute, expression, outcome, e.toString());
        }
    }
}
