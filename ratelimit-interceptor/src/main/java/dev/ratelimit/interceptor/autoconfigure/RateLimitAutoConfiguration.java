package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.internal.expression.LimitExpressions;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.identity.CustomKeyExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.IdentityResolver;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.identity.RequestUserResolver;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import dev.ratelimit.interceptor.web.ServletCurrentClient;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Installs the rate limiter in any Spring Boot app (its web layer, where it is a servlet web app, is
 * {@link RateLimitWebMvcAutoConfiguration}), one configuration per part, each deciding whether its beans are
 * there: the limiter's Redis ({@link LimiterRedisConfiguration}), where the counters are
 * ({@link CounterStoreConfiguration}: Redis behind a circuit breaker and a near cache of denials, or this
 * process with {@code ratelimit.store=memory}, which touches no Redis at all), the config hash
 * ({@link ConfigHashConfiguration}) and the decision ({@link DecisionConfiguration}). They are imported in that
 * order because each part's conditions ask for the beans of the parts before it. Every part is a bean an app
 * can replace by declaring its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnProperty(prefix = "ratelimit", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(RateLimitProperties.class)
@Import({LimiterRedisConfiguration.class, CounterStoreConfiguration.class, ConfigHashConfiguration.class,
        DecisionConfiguration.class, AdviceConfiguration.class})
public class RateLimitAutoConfiguration {

    /**
     * The app's own Redis as Spring Boot describes it, when the app uses Spring Boot's Redis: a service
     * connection (Testcontainers, Docker Compose) or the properties, with the app's client settings.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails")
    @ConditionalOnBean(type = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails")
    @ConditionalOnLimiterRedis
    static class AppRedis {

        @Bean
        @ConditionalOnMissingBean
        LimiterRedisServer rateLimitAppRedisServer(RateLimitProperties properties,
                                                   ObjectProvider<DataRedisConnectionDetails> details,
                                                   ObjectProvider<LettuceConnectionFactory> appFactory) {
            String url = properties.redis().url();
            return url != null ? LimiterRedisServer.ofUrl(url, "ratelimit.redis.url")
                    : AppRedisServer.of(details.getObject(), appFactory.getIfUnique());
        }
    }

    /**
     * Who a request's client is, where the servlet API is on the classpath, in a web app or not: the identities
     * the interceptor counts under, the client a bean method called in a request counts under, and the one
     * {@link RateLimitService} reads from a request. An app without it (a batch job on
     * {@code spring-boot-starter} alone) has bean-method limits all the same, under no request's client.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "jakarta.servlet.http.HttpServletRequest")
    static class ServletApi {

        @Bean
        @ConditionalOnMissingBean
        CustomKeyExpressions rateLimitCustomKeyExpressions(BeanFactory beanFactory, LimitExpressions expressions) {
            return new CustomKeyExpressions(beanFactory, expressions.keys());
        }

        @Bean
        @ConditionalOnMissingBean
        RequestExpressions rateLimitRequestExpressions(BeanFactory beanFactory, LimitExpressions expressions) {
            return new RequestExpressions(beanFactory, expressions.requests());
        }

        @Bean
        @ConditionalOnMissingBean
        IdentityResolver rateLimitIdentityResolver(RateLimitProperties properties) {
            RateLimitProperties.Identity identity = properties.identity();
            return new RequestUserResolver(identity.userParameter(), identity.userSessionAttribute(),
                    identity.principal());
        }

        @Bean
        @ConditionalOnMissingBean
        TrustedProxyResolver rateLimitTrustedProxyResolver(RateLimitProperties properties) {
            return new TrustedProxyResolver(properties.trustedProxies());
        }

        @Bean
        @ConditionalOnMissingBean
        DimensionKeys rateLimitDimensionKeys(IdentityResolver users, TrustedProxyResolver clientIps,
                                             RateLimitProperties properties, CustomKeyExpressions customKeys) {
            return new DimensionKeys(users, clientIps, properties.identity().ipv6PrefixLength(), customKeys);
        }

        @Bean
        @ConditionalOnMissingBean
        CurrentClient rateLimitCurrentClient(DimensionKeys identities) {
            return new ServletCurrentClient(identities);
        }
    }
}
