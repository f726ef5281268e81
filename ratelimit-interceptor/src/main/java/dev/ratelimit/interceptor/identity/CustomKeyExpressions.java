package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.CustomKeyResolver;
import dev.ratelimit.interceptor.expression.ParsedExpressions;
import jakarta.servlet.http.HttpServletRequest;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.web.servlet.HandlerMapping;

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

    private final ParsedExpressions parsed = new ParsedExpressions("key expression");
    private final BeanFactoryResolver beans;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /** @param beanFactory resolves {@code @bean} references; {@code null} for none */
    public CustomKeyExpressions(BeanFactory beanFactory) {
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
     * The key the expression gives for a request, or {@code null} when it gives nothing. An expression
     * that fails on a request (say, a method called on a missing header) gives nothing too, with one
     * warning per expression: a limiter must not turn a request into an error.
     */
    public String evaluate(String expression, HttpServletRequest servletRequest) {
        HttpServletRequest request = new ParameterGuard(servletRequest);
        StandardEvaluationContext context = new StandardEvaluationContext(request);
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        context.setVariable("request", request);
        context.setVariable("pathVariables", pathVariables(request));
        context.setVariable("headers", new RequestHeaders(request));
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

    @SuppressWarnings("unchecked")
    private static Map<String, String> pathVariables(HttpServletRequest request) {
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
    }

    /** The request's headers as a read-only map of first values; {@code get} ignores the name's case, as HTTP does. */
    private static final class RequestHeaders extends AbstractMap<String, String> {

        private final HttpServletRequest request;

        RequestHeaders(HttpServletRequest request) {
            this.request = request;
        }

        @Override
        public String get(Object name) {
            return name instanceof String header ? request.getHeader(header) : null;
        }

        @Override
        public boolean containsKey(Object name) {
            return get(name) != null;
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            Set<Entry<String, String>> entries = new LinkedHashSet<>();
            for (String name : Collections.list(request.getHeaderNames())) {
                entries.add(new SimpleImmutableEntry<>(name, request.getHeader(name)));
            }
            return entries;
        }
    }
}
