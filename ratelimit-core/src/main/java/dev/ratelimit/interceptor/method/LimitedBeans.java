package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitRule;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.stereotype.Controller;
import org.springframework.util.ClassUtils;

/**
 * The beans whose calls are limited, found once every singleton exists, so that a misdeclared limit fails
 * the start with the method named, and the API index, the console and the actuator list them from the
 * start: the methods with {@code @RateLimit} of beans that are not controllers (the handler mappings list
 * those), and the rules {@link RateLimitRule} beans define.
 */
public final class LimitedBeans {

    private LimitedBeans() {
    }

    /** Registers them in {@code catalog}; throws when one is misdeclared. */
    public static void register(ConfigurableListableBeanFactory beans, EndpointCatalog catalog) {
        catalog.registerMethods(candidates(beans).stream().filter(type -> !isController(type)).toList());
        beans.getBeansOfType(RateLimitRule.class).forEach((name, rule) ->
                catalog.registerRule("RateLimitRule bean '" + name + "'", rule.annotation()));
    }

    /**
     * Where the controllers declare {@code @RateLimit}, as {@code Type} (on a class) or {@code Type.method}, in
     * order: what the limiter's web layer limits, in a servlet web app only. Makes no bean.
     */
    public static List<String> controllerDeclarations(ConfigurableListableBeanFactory beans) {
        List<String> found = new ArrayList<>();
        for (Class<?> type : candidates(beans).stream().filter(LimitedBeans::isController).toList()) {
            if (EndpointCatalog.isLimited(type)) {
                found.add(type.getSimpleName());
            }
            MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>) method ->
                            EndpointCatalog.isLimited(method) ? Boolean.TRUE : null).keySet().stream()
                    .map(method -> type.getSimpleName() + "." + method.getName()).sorted().forEach(found::add);
        }
        return found;
    }

    /** The classes of the beans that may carry {@code @RateLimit}, behind their proxies. */
    private static Set<Class<?>> candidates(ConfigurableListableBeanFactory beans) {
        Set<Class<?>> types = new LinkedHashSet<>();
        for (String name : beans.getBeanDefinitionNames()) {
            Class<?> type = beans.getMergedBeanDefinition(name).isAbstract() ? null : typeOf(beans, name);
            if (type != null && AnnotationUtils.isCandidateClass(type, RateLimit.class)) {
                types.add(type);
            }
        }
        return types;
    }

    /** Whether a class is a controller: its handler methods are limited by the web layer, never by the advisor. */
    static boolean isController(Class<?> type) {
        return AnnotatedElementUtils.hasAnnotation(type, Controller.class);
    }

    /** The class of a bean, behind its proxy if it has one; {@code null} when it cannot be told without making the bean. */
    private static @Nullable Class<?> typeOf(ConfigurableListableBeanFactory beans, String name) {
        Class<?> type = beans.getType(name, false);
        if (type != null && Proxy.isProxyClass(type) && beans.containsSingleton(name)) {
            Object bean = Objects.requireNonNull(beans.getSingleton(name), "a singleton it contains");
            type = AopProxyUtils.ultimateTargetClass(bean);
        }
        return type == null ? null : ClassUtils.getUserClass(type);
    }
}
