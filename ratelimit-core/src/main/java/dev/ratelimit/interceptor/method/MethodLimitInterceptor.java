package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.MethodClassKey;
import org.springframework.util.ClassUtils;

/**
 * The call path of a limited bean method: finds the method's endpoint, has the {@link CallLimiter} admit
 * the call (waiting up to its {@code maxWait}, or throwing), runs it, and when it ended gives back what its
 * {@code countWhen} limits took unless it matches. The limiter's parts are looked up on the first call,
 * so that making the advisor, which Spring does early, makes nothing else early.
 */
final class MethodLimitInterceptor implements MethodInterceptor {

    private final ObjectProvider<EndpointCatalog> catalogs;
    private final ObjectProvider<CallLimiter> limiters;
    private final ObjectProvider<CurrentClient> clients;
    private final CallExpressions expressions;
    /** Each method called, on its bean's class: its endpoint, {@code null} for an exempt one, and the method declared there. */
    private final ConcurrentMap<MethodClassKey, Limited> methods = new ConcurrentHashMap<>();
    private volatile @Nullable Parts parts;

    MethodLimitInterceptor(ObjectProvider<EndpointCatalog> catalogs, ObjectProvider<CallLimiter> limiters,
                           ObjectProvider<CurrentClient> clients, BeanFactory beanFactory) {
        this.catalogs = catalogs;
        this.limiters = limiters;
        this.clients = clients;
        this.expressions = new CallExpressions(beanFactory);
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Parts limiting = parts();
        Object target = invocation.getThis();
        Class<?> type = ClassUtils.getUserClass(target == null ? invocation.getMethod().getDeclaringClass()
                : AopProxyUtils.ultimateTargetClass(target));
        Limited limited = methods.computeIfAbsent(new MethodClassKey(invocation.getMethod(), type), key -> {
            Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), type);
            return new Limited(limiting.catalog().endpoint(type, method), method);
        });
        Endpoint endpoint = limited.endpoint();
        if (endpoint == null) {
            return invocation.proceed();
        }
        MethodCall call = new MethodCall(endpoint, limited.method(), invocation.getArguments(), target, expressions,
                limiting.clients());
        Verdict verdict = limiting.limiter().admit(endpoint, call);
        if (verdict.reservations().isEmpty()) {
            return invocation.proceed();
        }
        Object result;
        try {
            result = invocation.proceed();
        } catch (Throwable e) {
            limiting.limiter().complete(verdict, call, null, e);
            throw e;
        }
        limiting.limiter().complete(verdict, call, result, null);
        return result;
    }

    private Parts parts() {
        Parts found = parts;
        if (found == null) {
            found = new Parts(catalogs.getObject(), limiters.getObject(), clients.getIfAvailable(() -> CurrentClient.NONE));
            parts = found;
        }
        return found;
    }

    private record Parts(EndpointCatalog catalog, CallLimiter limiter, CurrentClient clients) {
    }

    private record Limited(@Nullable Endpoint endpoint, Method method) {
    }
}
