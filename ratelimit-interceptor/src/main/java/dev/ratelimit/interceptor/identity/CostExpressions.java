package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.expression.ParsedExpressions;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;

/**
 * The {@code costExpression}s of limits: what one request weighs, computed from the request with the
 * same context as a {@code CUSTOM} key ({@link RequestExpressionContext}). Expressions come from the
 * app's own annotations, never from a request or the config hash.
 */
public class CostExpressions {

    private static final Logger log = LoggerFactory.getLogger(CostExpressions.class);

    private final ParsedExpressions parsed = new ParsedExpressions("cost expression");
    private final BeanFactoryResolver beans;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /** @param beanFactory resolves {@code @bean} references; {@code null} for none */
    public CostExpressions(BeanFactory beanFactory) {
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
    }

    /**
     * Parses and keeps an expression.
     *
     * @throws IllegalArgumentException when it does not parse, saying where
     */
    public void parse(String expression) {
        parsed.get(expression);
    }

    /**
     * The units the request takes: the expression's number, at least 1. An expression that fails on a
     * request, or gives no number, counts 1, with one warning per expression: a limiter must not turn a
     * request into an error, and its request is still counted.
     */
    public long cost(String expression, HttpServletRequest servletRequest) {
        HttpServletRequest request = new ParameterGuard(servletRequest);
        try {
            Object value = parsed.get(expression).getValue(RequestExpressionContext.of(request, beans));
            if (value instanceof Number number) {
                return Math.max(1, number.longValue());
            }
            throw new IllegalStateException("gave " + value + ", not a number");
        } catch (RuntimeException e) {
            UnreadableRequestException unreadable = ParameterGuard.unreadable(e);
            if (unreadable != null) {
                throw unreadable;
            }
            if (reportedFailures.add(expression)) {
                log.warn("Rate limit cost expression '{}' failed; such requests cost 1: {}", expression, e.toString());
            }
            return 1;
        }
    }
}
