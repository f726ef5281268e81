package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.openapi.RateLimitOpenApi;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.store.FailurePolicy;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * With springdoc on the classpath, the limits go into the app's OpenAPI description ({@link RateLimitOpenApi}): the
 * limits of a servlet web app's handler methods, so only in one.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(OperationCustomizer.class)
@ConditionalOnBean(EndpointCatalog.class)
public class RateLimitOpenApiAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitOpenApi rateLimitOpenApi(EndpointCatalog catalog, RateLimitProperties properties) {
        return new RateLimitOpenApi(catalog, properties.responseOptions(),
                properties.redisFailure().mode() == FailurePolicy.CLOSED);
    }
}
