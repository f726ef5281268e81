package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.internal.expression.ParsedExpressions;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationContext;

/**
 * The SpEL expressions of limits on bean methods, read on the call: {@code key}, {@code costExpression},
 * {@code plan}, and after it {@code countWhen}. The variables are the arguments ({@code #args}, {@code #p0}
 * or {@code #a0}, and their names where the code is compiled with {@code -parameters}, as Spring Boot's
 * build plugins do), {@code #target} (the bean), and once the call ended {@code #result} and
 * {@code #exception}; {@code @name} refers to a bean. Each expression is parsed once (the start checked
 * that it parses). As on a request, an expression that fails never fails the call: one warning per
 * expression, and the limit errs on its own side or does not apply.
 */
final class CallExpressions {

    private static final Logger log = LoggerFactory.getLogger(CallExpressions.class);
    private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

    private final ParsedExpressions parsed = new ParsedExpressions("expression");
    private final @Nullable BeanFactoryResolver beans;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    /** @param beanFactory resolves {@code @bean} references; {@code null} for none */
    CallExpressions(@Nullable BeanFactory beanFactory) {
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
    }

    /** The context of one call, its arguments read only when an expression asks for them. */
    EvaluationContext context(Method method, Object[] args, @Nullable Object target) {
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(args, method, args, PARAMETER_NAMES);
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        context.setVariable("args", args);
        context.setVariable("target", target);
        return context;
    }

    /** The identity a {@code CUSTOM} key gives, or {@code null}: the limit then does not apply to the call. */
    @Nullable String key(String expression, EvaluationContext call) {
        Object value = value(expression, call, "its limit does not apply to such calls");
        return value == null ? null : value.toString();
    }

    /** The units the call takes: the expression's number, at least 1; 1 when it gives none. */
    long cost(String expression, EvaluationContext call) {
        return Math.max(1, typed(expression, call, Number.class, 1, "such calls cost 1").longValue());
    }

    /** The client's plan, or {@code null}: the limit then applies as declared. */
    @Nullable String plan(String expression, EvaluationContext call) {
        Object value = value(expression, call, "such calls get the declared limit");
        return value == null ? null : value.toString();
    }

    /**
     * Whether a call that ended stays counted by a limit with this {@code countWhen}: {@code #result} and
     * {@code #exception} set in {@code ended}. One that cannot tell counts it.
     */
    boolean counts(String countWhen, EvaluationContext ended) {
        return typed(countWhen, ended, Boolean.class, true, "such calls stay counted");
    }

    /**
     * The units a call that ended used, as a {@code costFromResponse} says ({@code #result} and
     * {@code #exception} set in {@code ended}): {@code null}, which keeps the estimate, when it gives none, or
     * anything but a whole number of 0 or more (then with one warning).
     */
    @Nullable Long used(String costFromResponse, EvaluationContext ended) {
        Object value = value(costFromResponse, ended, "such calls keep their estimate");
        try {
            return value == null ? null : RequestCost.used(value);
        } catch (IllegalArgumentException e) {
            warnOnce(costFromResponse, "such calls keep their estimate", e.getMessage());
            return null;
        }
    }

    /** The expression's value if it is a {@code type}, else {@code otherwise}, with one warning. */
    private <T> T typed(String expression, EvaluationContext call, Class<T> type, T otherwise, String consequence) {
        Object value = value(expression, call, consequence);
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        warnOnce(expression, consequence, "gave " + value + ", not a " + type.getSimpleName());
        return otherwise;
    }

    private @Nullable Object value(String expression, EvaluationContext call, String consequence) {
        try {
            return parsed.get(expression).getValue(call);
        } catch (RuntimeException e) {
            warnOnce(expression, consequence, e.toString());
            return null;
        }
    }

    private void warnOnce(String expression, String consequence, @Nullable String failure) {
        if (reportedFailures.add(expression)) {
            log.warn("Rate limit expression '{}' failed on a method call; {}: {}", expression, consequence, failure);
        }
    }
}
