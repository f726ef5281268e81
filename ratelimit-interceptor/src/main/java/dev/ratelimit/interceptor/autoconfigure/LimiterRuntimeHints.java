package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.actuate.RateLimitAdviceEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitEndpoint;
import dev.ratelimit.interceptor.advice.LimitAdvice;
import dev.ratelimit.interceptor.web.RejectionMessages;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the limiter loads by name, for a native image: its Lua scripts (read from the classpath by the
 * store, the config hash and the blocked-clients recorder), the rejection messages of the i18n module
 * (a properties bundle read as a resource, in UTF-8), and the actuator answers Jackson writes.
 */
class LimiterRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern("dev/ratelimit/interceptor/**/*.lua")
                .registerPattern(RejectionMessages.BUNDLE + ".properties")
                .registerPattern(RejectionMessages.BUNDLE + "_*.properties");
        // The advice endpoint answers Object (a rule's advice or requests, or every rule's), which Spring Boot cannot see through.
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), RateLimitEndpoint.Report.class,
                LimitAdvice.class, RateLimitAdviceEndpoint.RulesAdvice.class, RateLimitAdviceEndpoint.WindowsAdvice.class);
    }
}
