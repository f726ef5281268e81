package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.internal.expression.LimitExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.ExcludedPaths;
import dev.ratelimit.interceptor.web.AllowanceController;
import dev.ratelimit.interceptor.web.HandlerEndpoints;
import dev.ratelimit.interceptor.web.LimitResponseWriter;
import dev.ratelimit.interceptor.web.NegotiatedRejectionHandler;
import dev.ratelimit.interceptor.web.RateLimitInterceptor;
import dev.ratelimit.interceptor.web.RejectionHandler;
import dev.ratelimit.interceptor.web.RejectionMessages;
import dev.ratelimit.interceptor.web.ResponseExpressions;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The limiter's web layer, in a servlet web app: the {@code /**} interceptor that limits the handler methods
 * of the app's controllers, its refusals (JSON or a page, in the request's language), and the allowance
 * endpoint when switched on. The limiter itself ({@link RateLimitAutoConfiguration}) is in every app.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(HandlerInterceptor.class)
@ConditionalOnBean(RequestLimiter.class)
public class RateLimitWebMvcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ResponseExpressions rateLimitResponseExpressions(LimitExpressions expressions) {
        return new ResponseExpressions(expressions.responses());
    }

    /** Reads every handler mapping once all are built, so an invalid {@code @RateLimit} fails the start. */
    @Bean
    static SmartInitializingSingleton rateLimitEndpointCatalogLoader(ObjectProvider<EndpointCatalog> catalog,
            ObjectProvider<RequestMappingHandlerMapping> handlerMappings) {
        return () -> handlerMappings.orderedStream()
                .forEach(mapping -> HandlerEndpoints.register(catalog.getObject(), mapping.getHandlerMethods()));
    }

    @Bean
    @ConditionalOnMissingBean
    RejectionMessages rateLimitRejectionMessages(ObjectProvider<MessageSource> messageSource) {
        return new RejectionMessages(messageSource.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    RejectionHandler rateLimitRejectionHandler(RateLimitProperties properties, RejectionMessages messages,
                                               ListableBeanFactory beans) {
        return new NegotiatedRejectionHandler(properties.responseOptions(), messages, beans);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitService.class)
    @ConditionalOnProperty(prefix = "ratelimit", name = "allowance-endpoint", havingValue = "true")
    AllowanceController rateLimitAllowanceController(RateLimitService service) {
        return new AllowanceController(service);
    }

    @Bean
    @ConditionalOnMissingBean
    LimitResponseWriter rateLimitResponseWriter(RejectionHandler rejectionHandler, RejectionMessages messages,
                                                RateLimitProperties properties, ObjectProvider<HandlerMapping> mappings) {
        return new LimitResponseWriter(properties.responseOptions(), rejectionHandler, messages,
                () -> mappings.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    RateLimitInterceptor rateLimitInterceptor(EndpointCatalog catalog, RequestLimiter limiter,
                                              DimensionKeys identities, LimitResponseWriter responses,
                                              ResponseExpressions responseExpressions, RequestExpressions costs) {
        return new RateLimitInterceptor(catalog, limiter, identities, responses, responseExpressions, costs);
    }

    @Bean
    @ConditionalOnBean(RateLimitInterceptor.class)
    WebMvcConfigurer rateLimitWebMvcConfigurer(RateLimitInterceptor interceptor, ExcludedPaths excluded) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(interceptor)
                        .addPathPatterns("/**")
                        .excludePathPatterns(excluded.patterns())
                        .order(Ordered.HIGHEST_PRECEDENCE);
            }
        };
    }
}
