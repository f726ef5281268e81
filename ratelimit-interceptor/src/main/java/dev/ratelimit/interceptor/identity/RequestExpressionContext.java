package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The evaluation context of the SpEL expressions on a request ({@code key}, {@code costExpression}):
 * the request as root object, the variables {@code #request}, {@code #pathVariables} and
 * {@code #headers} (a map of first values, names in any case), and {@code @bean} references.
 */
final class RequestExpressionContext {

    private RequestExpressionContext() {
    }

    /** @param request the request, already behind its {@link ParameterGuard} */
    static StandardEvaluationContext of(HttpServletRequest request, @Nullable BeanFactoryResolver beans) {
        StandardEvaluationContext context = new StandardEvaluationContext(request);
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        context.setVariable("request", request);
        context.setVariable("pathVariables", pathVariables(request));
        context.setVariable("headers", new RequestHeaders(request));
        return context;
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
        public @Nullable String get(Object name) {
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
