package dev.ratelimit.interceptor.rule;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * A handler method as the limiter sees it: its derived name, its URL patterns and HTTP methods, and
 * the limits its {@code @RateLimit} annotations declare (empty when it has none).
 *
 * @param module   the app's module
 * @param rule     {@code ControllerSimpleName.methodName} (with {@code ~2}... when another handler method
 *                 derives the same name): the name {@code dyn.<module>.<rule>} refers to
 * @param patterns URL patterns, the primary one first
 * @param limitsFromClass whether its limits are its controller class's {@code @RateLimit}: the method
 *                 declares none of its own
 */
public record Endpoint(String module, String rule, Class<?> controller, Method method, List<String> patterns,
                       Set<String> httpMethods, List<LimitDefinition> limits, boolean limitsFromClass) {

    public Endpoint {
        patterns = List.copyOf(patterns);
        httpMethods = Set.copyOf(httpMethods);
        limits = List.copyOf(limits);
    }

    /** {@code <module>.<rule>}: the id of the endpoint in the API index and in {@code dyn.*} fields. */
    public String id() {
        return module + "." + rule;
    }

    public String primaryPattern() {
        return patterns.isEmpty() ? "" : patterns.get(0);
    }

    /** The Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}: tells colliding names apart. */
    public String handler() {
        return handler(controller, method);
    }

    static String handler(Class<?> controller, Method method) {
        StringJoiner parameters = new StringJoiner(",", "(", ")");
        for (Class<?> type : method.getParameterTypes()) {
            parameters.add(type.getTypeName());
        }
        return controller.getName() + "." + method.getName() + parameters;
    }
}
