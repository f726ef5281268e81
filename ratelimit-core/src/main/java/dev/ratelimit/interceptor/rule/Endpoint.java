package dev.ratelimit.interceptor.rule;

import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A handler method as the limiter sees it: its id, its URL patterns and HTTP methods, and the limits
 * its {@code @RateLimit} annotations declare (empty when it has none); or, of another {@link Kind}, a
 * limited method of a bean that is not a controller, or a rule defined in code. A plain value: the API
 * index stores it and the console reads it back for any module.
 *
 * @param id       {@code <module>.<ControllerSimpleName.methodName>} (with {@code ~2}... when another
 *                 handler method derives the same name): the id {@code dyn.<id>} refers to
 * @param kind     what is limited: requests to a handler method, calls of a bean method, or the calls code
 *                 makes through {@code RateLimitService}
 * @param patterns URL patterns, sorted; none but for {@link Kind#HTTP}
 * @param httpMethods HTTP methods; empty means every method
 * @param handler  the Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}: tells
 *                 colliding names apart; for a rule defined in code, the bean that defines it
 * @param limitsFromClass whether its limits are its controller class's {@code @RateLimit}: the method
 *                 declares none of its own
 * @param maxWait  how long a refused call waits for its turn ({@code @RateLimit(maxWait)}); zero for none,
 *                 always for a request
 */
public record Endpoint(RuleId id, Kind kind, List<String> patterns, Set<String> httpMethods, String handler,
                       List<LimitDefinition> limits, boolean limitsFromClass, Duration maxWait) {

    /** What an endpoint limits. */
    public enum Kind {
        /** Requests to a controller's handler method. */
        HTTP,
        /** Calls of a method of a bean that is not a controller. */
        METHOD,
        /** Calls that code counts through {@code RateLimitService}, of a rule defined by a {@code RateLimitRule} bean. */
        CODE;

        private final String key = name().toLowerCase(Locale.ROOT);

        /** As the API index and the views write it: {@code http}, {@code method}, {@code code}. */
        @JsonValue
        public String key() {
            return key;
        }
    }

    public Endpoint {
        patterns = List.copyOf(patterns);
        httpMethods = Set.copyOf(httpMethods);
        limits = List.copyOf(limits);
    }

    /** A handler method's endpoint. */
    public Endpoint(RuleId id, List<String> patterns, Set<String> httpMethods, String handler,
                    List<LimitDefinition> limits, boolean limitsFromClass) {
        this(id, Kind.HTTP, patterns, httpMethods, handler, limits, limitsFromClass, Duration.ZERO);
    }

    public String primaryPattern() {
        return patterns.isEmpty() ? "" : patterns.get(0);
    }

    public boolean isAnnotated() {
        return !limits.isEmpty();
    }

    /** Whether it limits requests; otherwise calls made in the app, which no {@code dyn} or {@code dynuri} rule reaches. */
    public boolean isHttp() {
        return kind == Kind.HTTP;
    }
}
