package dev.ratelimit.interceptor.rule;

import java.util.List;
import java.util.Set;

/**
 * A handler method as the limiter sees it: its id, its URL patterns and HTTP methods, and the limits
 * its {@code @RateLimit} annotations declare (empty when it has none). A plain value: the API index
 * stores it and the console reads it back for any module.
 *
 * @param id       {@code <module>.<ControllerSimpleName.methodName>} (with {@code ~2}... when another
 *                 handler method derives the same name): the id {@code dyn.<id>} refers to
 * @param patterns URL patterns, sorted
 * @param httpMethods HTTP methods; empty means every method
 * @param handler  the Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}: tells
 *                 colliding names apart
 * @param limitsFromClass whether its limits are its controller class's {@code @RateLimit}: the method
 *                 declares none of its own
 */
public record Endpoint(RuleId id, List<String> patterns, Set<String> httpMethods, String handler,
                       List<LimitDefinition> limits, boolean limitsFromClass) {

    public Endpoint {
        patterns = List.copyOf(patterns);
        httpMethods = Set.copyOf(httpMethods);
        limits = List.copyOf(limits);
    }

    public String primaryPattern() {
        return patterns.isEmpty() ? "" : patterns.get(0);
    }

    public boolean isAnnotated() {
        return !limits.isEmpty();
    }
}
