package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.CustomKeyResolver;
import dev.ratelimit.interceptor.internal.expression.ParsedExpressions;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The SpEL key expressions of {@code Dimension.CUSTOM} limits. Each is parsed once, when the endpoint
 * catalog registers the method (so a bad one fails the start with the method named), and kept.
 * Evaluated with the request as root object and the variables {@code #request}, {@code #pathVariables}
 * and {@code #headers} (a map of first values, names in any case), with {@code @bean} references
 * resolved in the app context. A value that is a {@link CustomKeyResolver} is asked in turn.
 * Expressions come from the app's own annotations, never from a request or the config hash.
 */
public class CustomKeyExpressions {

    private static final Logger log = LoggerFactory.getLogger(CustomKeyExpressions.class);

    private final ParsedExpressions parsed;
    private final @Nullable BeanFactoryResolver beans;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /**
     * @param beanFactory resolves {@code @bean} references; {@code null} for none
     * @param parsed where the key expressions are parsed and kept
     */
    public CustomKeyExpressions(@Nullable BeanFactory beanFactory, ParsedExpressions parsed) {
        this.parsed = parsed;
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
    }

    /**
     * The key the expression gives for a request, or {@code null} when it gives nothing. An expression
     * that fails on a request (say, a method called on a missing header) gives nothing too, with one
     * warning per expression: a limiter must not turn a request into an error.
     */
    public @Nullable String evaluate(String expression, HttpServletRequest servletRequest) {
        HttpServletRequest request = new ParameterGuard(servletRequest);
        StandardEvaluationContext context = RequestExpressionContext.of(request, beans);
        try {
            Object value = parsed.get(expression).getValue(context);
            if (value instanceof CustomKeyResolver resolver) {
                value = resolver.resolve(request);
            }
            return value == null ? null : value.toString();
        } catch (RuntimeException e) {
            UnreadableRequestException unreadable = ParameterGuard.unreadable(e);
            if (unreadable != null) {
                throw unreadable;
            }
            if (reportedFailures.add(expression)) {
                log.warn("Rate limit key expression '{}' failed; its limit does not apply to such requests: {}",
                        expression, e.toString());
            }
            return null;
        }
    }
}
