package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;

/**
 * Limits the calls of the methods with {@code @RateLimit} of beans that are not controllers. Ordered
 * before the advice Spring applies at the lowest precedence ({@code @Transactional}, {@code @Cacheable}),
 * so that a refused or waiting call holds no transaction.
 */
public final class MethodLimitAdvisor extends AbstractPointcutAdvisor {

    /** Its place among advisors: just before those at the lowest precedence. */
    public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

    private final Pointcut pointcut = new LimitedMethodPointcut();
    private final MethodLimitInterceptor advice;

    /** The parts are asked for on the first limited call. */
    public MethodLimitAdvisor(ObjectProvider<EndpointCatalog> catalog, ObjectProvider<CallLimiter> limiter,
                              ObjectProvider<CurrentClient> clients, BeanFactory beanFactory) {
        this.advice = new MethodLimitInterceptor(catalog, limiter, clients, beanFactory);
        setOrder(ORDER);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return advice;
    }
}
