package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.method.CallLimiter;
import dev.ratelimit.interceptor.method.LimitedBeans;
import dev.ratelimit.interceptor.method.MethodLimitAdvisor;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Limits the calls of bean methods with {@code @RateLimit} (beans that are not controllers) through an
 * advisor, and finds them, with the rules {@code RateLimitRule} beans define, at start-up. Spring Boot's
 * AOP auto-configuration provides the proxy creator that applies the advisor; where it is switched off,
 * one is registered, as {@code @EnableTransactionManagement} does.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnBean(RequestLimiter.class)
@Import(MethodLimitAutoConfiguration.ProxyCreator.class)
public class MethodLimitAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CallLimiter rateLimitCallLimiter(RuleCatalog catalog, RequestLimiter limiter, ObjectProvider<CurrentClient> clients) {
        return new CallLimiter(catalog, limiter, clients.getIfAvailable(() -> CurrentClient.NONE));
    }

    /** Made early by the proxy creator, so it takes its parts lazily. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static MethodLimitAdvisor rateLimitMethodAdvisor(ObjectProvider<EndpointCatalog> catalog,
                                                     ObjectProvider<CallLimiter> limiter,
                                                     ObjectProvider<CurrentClient> clients, BeanFactory beanFactory) {
        return new MethodLimitAdvisor(catalog, limiter, clients, beanFactory);
    }

    /** Once every singleton exists, after the handler mappings: a misdeclared limit fails the start. */
    @Bean
    static SmartInitializingSingleton rateLimitMethodCatalogLoader(ConfigurableListableBeanFactory beans,
                                                                   ObjectProvider<EndpointCatalog> catalog) {
        return () -> LimitedBeans.register(beans, catalog.getObject());
    }

    static class ProxyCreator implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
