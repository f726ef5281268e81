package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the limits' SpEL expressions ({@code key}, {@code costExpression}, {@code plan}, {@code countWhen},
 * {@code costFromResponse}) call by reflection, for a native image: the request, which they get behind its
 * {@link ParameterGuard}, and the response. Methods of an app's own beans or arguments named in an
 * expression are the app's to hint.
 */
class ExpressionRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        // SpEL looks a method up on the object's class and invokes it through the public interface declaring it.
        hints.reflection().registerType(ParameterGuard.class, MemberCategory.INVOKE_PUBLIC_METHODS)
                .registerType(HttpServletRequest.class, MemberCategory.INVOKE_PUBLIC_METHODS)
                .registerType(HttpServletResponse.class, MemberCategory.INVOKE_PUBLIC_METHODS);
    }
}
