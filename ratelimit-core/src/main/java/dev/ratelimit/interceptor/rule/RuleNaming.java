package dev.ratelimit.interceptor.rule;

import dev.ratelimit.interceptor.RateLimit;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;

/**
 * Names modules and rules. The interceptor, the API index and the console all name through this one
 * class, so a rule edited in the console is the rule the interceptor enforces.
 *
 * <ul>
 *   <li>module: {@code ratelimit.module}, else {@code spring.application.name} without a leading
 *       {@code app-}, else {@code app}; an annotation may name its own.</li>
 *   <li>rule: {@code ControllerSimpleName.methodName}; an annotation may name its own. When a method
 *       carries several limits, each unnamed one gets {@code #<dimension>} appended. When two handler
 *       methods derive the same name (overloads, or equal simple class names in two packages), the
 *       second and later get {@code ~2}, {@code ~3}... (see {@link EndpointCatalog}).</li>
 * </ul>
 */
public final class RuleNaming {

    private static final String APP_PREFIX = "app-";
    private static final String FALLBACK_MODULE = "app";

    private final String module;

    public RuleNaming(String module) {
        this.module = module;
    }

    /** Derives the app's module from {@code ratelimit.module} and {@code spring.application.name} (either may be null). */
    public static RuleNaming of(@Nullable String configuredModule, @Nullable String applicationName) {
        if (configuredModule != null && !configuredModule.isBlank()) {
            return new RuleNaming(configuredModule.strip());
        }
        if (applicationName != null && !applicationName.isBlank()) {
            String name = applicationName.strip();
            String stripped = name.startsWith(APP_PREFIX) ? name.substring(APP_PREFIX.length()) : name;
            return new RuleNaming(stripped.isEmpty() ? name : stripped);
        }
        return new RuleNaming(FALLBACK_MODULE);
    }

    /** The app's own module name. */
    public String module() {
        return module;
    }

    public String module(RateLimit annotation) {
        return annotation.module().isBlank() ? module : annotation.module().strip();
    }

    /** {@code ControllerSimpleName.methodName} of a handler method on the given controller class. */
    public String rule(Class<?> controller, Method method) {
        return controller.getSimpleName() + "." + method.getName();
    }

    /**
     * The rule name of one of {@code total} annotations on a handler method whose own rule name is
     * {@code endpointRule}.
     */
    public String rule(String endpointRule, RateLimit annotation, int total) {
        if (!annotation.rule().isBlank()) {
            return annotation.rule().strip();
        }
        return total > 1 ? endpointRule + "#" + annotation.dimension().name().toLowerCase(java.util.Locale.ROOT)
                : endpointRule;
    }

    /**
     * The rule name of the {@code ordinal}-th handler method (2, 3...) whose derived name is already taken
     * by another one. {@code ~} cannot occur in a Java name, so the result never collides with a derived name.
     */
    public String disambiguated(String rule, int ordinal) {
        return rule + "~" + ordinal;
    }
}
