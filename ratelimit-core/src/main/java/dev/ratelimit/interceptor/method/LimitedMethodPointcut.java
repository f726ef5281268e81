package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import java.lang.reflect.Method;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * The methods with {@code @RateLimit} (on the method, or on the interface method it implements) of beans
 * that are not controllers: a controller's requests are limited by the web layer, and a request must be
 * counted once.
 */
final class LimitedMethodPointcut extends StaticMethodMatcherPointcut {

    LimitedMethodPointcut() {
        setClassFilter(type -> {
            Class<?> user = ClassUtils.getUserClass(type);
            return AnnotationUtils.isCandidateClass(user, RateLimit.class) && !LimitedBeans.isController(user);
        });
    }

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
        return EndpointCatalog.isLimited(AopUtils.getMostSpecificMethod(method, targetClass));
    }
}
