package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.config.ConfigChangeListener;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigDefaults;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.identity.CustomKeyExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.IdentityResolver;
import dev.ratelimit.interceptor.identity.RequestUserResolver;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.startup.StartupTask;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.web.JsonRejectionHandler;
import dev.ratelimit.interceptor.web.RateLimitInterceptor;
import dev.ratelimit.interceptor.web.RejectionHandler;
import dev.ratelimit.interceptor.web.RejectionMessages;
import java.time.Clock;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Installs the rate limiter in a servlet web app: counters in Redis ({@code ratelimit.store=redis},
 * the default) or in this process ({@code memory}); every part is a bean an app can replace by
 * declaring its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({HandlerInterceptor.class, StringRedisTemplate.class})
@ConditionalOnProperty(prefix = "ratelimit", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(RateLimitProperties.class)
public class RateLimitAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RedisKeys rateLimitRedisKeys(RateLimitProperties properties) {
        return new RedisKeys(properties.redis().keyPrefix());
    }

    @Bean
    @ConditionalOnMissingBean
    RuleNaming rateLimitRuleNaming(RateLimitProperties properties, Environment environment) {
        return RuleNaming.of(properties.module(), environment.getProperty("spring.application.name"));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(StringRedisTemplate.class)
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
    RateLimitStore rateLimitStore(StringRedisTemplate redis) {
        return new RedisRateLimitStore(redis);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "memory")
    RateLimitStore rateLimitMemoryStore(RateLimitProperties properties) {
        return new MemoryRateLimitStore(Clock.systemUTC(), properties.memory().maxKeys());
    }

    @Bean
    @ConditionalOnMissingBean
    CustomKeyExpressions rateLimitCustomKeyExpressions(BeanFactory beanFactory) {
        return new CustomKeyExpressions(beanFactory);
    }

    @Bean
    @ConditionalOnMissingBean
    EndpointCatalog rateLimitEndpointCatalog(RuleNaming naming, RateLimitStore store, CustomKeyExpressions customKeys) {
        return new EndpointCatalog(naming, store.supportedAlgorithms(), customKeys::parse);
    }

    /** Reads every handler mapping once all are built, so an invalid {@code @RateLimit} fails the start. */
    @Bean
    static SmartInitializingSingleton rateLimitEndpointCatalogLoader(ObjectProvider<EndpointCatalog> catalog,
            ObjectProvider<RequestMappingHandlerMapping> handlerMappings) {
        return () -> handlerMappings.orderedStream()
                .forEach(mapping -> catalog.getObject().register(mapping.getHandlerMethods()));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(StringRedisTemplate.class)
    SysConfigRepository rateLimitSysConfigRepository(StringRedisTemplate redis, RedisKeys keys) {
        return new SysConfigRepository(redis, keys);
    }

    /** Without Redis (an in-process store and no Redis client) the annotations' limits apply as declared. */
    @Bean
    @ConditionalOnMissingBean
    RuleSnapshotHolder rateLimitRuleSnapshotHolder(ObjectProvider<SysConfigRepository> repository,
                                                   RateLimitProperties properties) {
        SysConfigRepository config = repository.getIfAvailable();
        return new RuleSnapshotHolder(config == null ? Map::of : config::readAll,
                properties.config().refreshInterval(), properties.config().initialLoadTimeout(), Clock.systemUTC());
    }

    /**
     * Refreshes the snapshot the moment a change is announced. Not a default injection candidate, so an
     * app that injects its own {@code RedisMessageListenerContainer} by type still gets its own. Started
     * by {@link #rateLimitConfigChangeSubscription}, not with the context: its first subscription fails
     * when Redis is away, and that must not fail the start. Once subscribed, Lettuce subscribes again
     * by itself after a lost connection.
     */
    @Bean(defaultCandidate = false)
    @ConditionalOnMissingBean(name = "rateLimitConfigChangeListenerContainer")
    @ConditionalOnBean(SysConfigRepository.class)
    RedisMessageListenerContainer rateLimitConfigChangeListenerContainer(StringRedisTemplate redis,
            RuleSnapshotHolder snapshots, RedisKeys keys) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(redis.getRequiredConnectionFactory());
        container.setAutoStartup(false);
        container.setRecoveryBackoff(StartupTask.retryPauses());
        container.addMessageListener(new ConfigChangeListener(snapshots), new ChannelTopic(keys.configChangedChannel()));
        return container;
    }

    @Bean
    @ConditionalOnMissingBean(name = "rateLimitConfigChangeSubscription")
    @ConditionalOnBean(name = "rateLimitConfigChangeListenerContainer")
    StartupTask rateLimitConfigChangeSubscription(
            @Qualifier("rateLimitConfigChangeListenerContainer") RedisMessageListenerContainer container,
            RedisKeys keys) {
        return new StartupTask("subscribe to " + keys.configChangedChannel(), () -> {
            try {
                container.start();
            } catch (RuntimeException e) {
                container.stop(); // so that the next attempt starts afresh
                throw e;
            }
        });
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    SysConfigEditor rateLimitSysConfigEditor(SysConfigRepository repository) {
        return new SysConfigEditor(repository);
    }

    @Bean
    @ConditionalOnMissingBean(name = "rateLimitConfigDefaultsWrite")
    @ConditionalOnBean(SysConfigRepository.class)
    StartupTask rateLimitConfigDefaultsWrite(EndpointCatalog catalog, SysConfigRepository repository) {
        return new StartupTask("write the rate limit config defaults", new SysConfigDefaults(catalog, repository)::write);
    }

    @Bean
    @ConditionalOnMissingBean
    IdentityResolver rateLimitIdentityResolver(RateLimitProperties properties) {
        RateLimitProperties.Identity identity = properties.identity();
        return new RequestUserResolver(identity.userParameter(), identity.userSessionAttribute(), identity.principal());
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
    RejectionMessages rateLimitRejectionMessages(ObjectProvider<MessageSource> messageSource) {
        return new RejectionMessages(messageSource.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    RejectionHandler rateLimitRejectionHandler(RateLimitProperties properties) {
        return new JsonRejectionHandler(properties.response().status(), properties.response().body());
    }

    @Bean
    @ConditionalOnMissingBean
    InterceptionLog rateLimitInterceptionLog() {
        return InterceptionLog.DISCARD;
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitStore.class)
    RateLimitInterceptor rateLimitInterceptor(EndpointCatalog catalog, RuleSnapshotHolder snapshots,
                                              DimensionKeys identities, RedisKeys keys, RateLimitStore store,
                                              RejectionHandler rejectionHandler, RejectionMessages messages,
                                              InterceptionLog interceptionLog, RateLimitProperties properties) {
        return new RateLimitInterceptor(catalog, snapshots, identities, keys, store, rejectionHandler, messages,
                interceptionLog, properties.response().headersOnAllowed(), properties.response().legacyHeaders(),
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnBean(RateLimitInterceptor.class)
    WebMvcConfigurer rateLimitWebMvcConfigurer(RateLimitInterceptor interceptor, RateLimitProperties properties) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(interceptor)
                        .addPathPatterns("/**")
                        .excludePathPatterns(properties.excludedPaths())
                        .order(Ordered.HIGHEST_PRECEDENCE);
            }
        };
    }
}
