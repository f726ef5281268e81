package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.internal.expression.ParsedExpressions;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;

/**
 * The expressions of limits that read something of the request beside its identity: a
 * {@code costExpression} (what one request weighs) and a {@code plan} (which plan the client is on),
 * with the same context as a {@code CUSTOM} key ({@link RequestExpressionContext}). Expressions come
 * from the app's own annotations, never from a request or the config hash.
 */
public class RequestExpressions {

    private static final Logger log = LoggerFactory.getLogger(RequestExpressions.class);

    private final ParsedExpressions parsed;
    private final @Nullable BeanFactoryResolver beans;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /**
     * @param beanFactory resolves {@code @bean} references; {@code null} for none
     * @param parsed where the expressions on requests are parsed and kept
     */
    public RequestExpressions(@Nullable BeanFactory beanFactory, ParsedExpressions parsed) {
        this.parsed = parsed;
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
    }

    /**
     * The units the request takes: the expression's number, at least 1. An expression that fails on a
     * request, or gives no number, counts 1, with one warning per expression: a limiter must not turn a
     * request into an error, and its request is still counted.
     */
    public long cost(String expression, HttpServletRequest request) {
        Object value = value(expression, request, "such requests cost 1");
        if (value instanceof Number number) {
            return Math.max(1, number.longValue());
        }
        warnOnce(expression, "such requests cost 1", "gave " + value + ", not a number");
        return 1;
    }

    /**
     * The client's plan, or {@code null} when the expression gives nothing (or fails, with one warning):
     * the limit then applies as declared.
     */
    public @Nullable String plan(String expression, HttpServletRequest request) {
        Object value = value(expression, request, "such clients get the declared limit");
        return value == null ? null : value.toString();
    }

    private @Nullable Object value(String expression, HttpServletRequest servletRequest, String consequence) {
        HttpServletRequest request = new ParameterGuard(servletRequest);
        try {
            return parsed.get(expression).getValue(RequestExpressionContext.of(request, beans));
        } catch (RuntimeException e) {
            UnreadableRequestException unreadable = ParameterGuard.unreadable(e);
            if (unreadable != null) {
                throw unreadable;
            }
            warnOnce(expression, consequence, e.toString());
            return null;
        }
    }

    private void warnOnce(String expression, String consequence, String failure) {
        if (reportedFailures.add(expression)) {
            log.warn("Rate limit expression '{}' failed; {}: {}", expression, consequence, failure);
        }
    }
}
