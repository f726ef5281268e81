package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.config.ConfigChangeListener;
import dev.ratelimit.interceptor.config.ConfigChangeSubscription;
import dev.ratelimit.interceptor.config.ConfigHash;
import dev.ratelimit.interceptor.config.ConfigHashTracking;
import dev.ratelimit.interceptor.config.ConfigReadListener;
import dev.ratelimit.interceptor.config.DurableConfigCopy;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigDefaults;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.config.document.RuleDocuments;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.VerdictObservationConvention;
import dev.ratelimit.interceptor.expression.LimitExpressions;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.identity.CustomKeyExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.IdentityResolver;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.identity.RequestUserResolver;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.instance.LiveInstances;
import dev.ratelimit.interceptor.lease.HeldLeases;
import dev.ratelimit.interceptor.lease.LeaseRenewal;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.ExcludedPaths;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.startup.StartupTask;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.store.batch.HeldPermits;
import dev.ratelimit.interceptor.store.chain.RedisStoreChain;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.store.nearcache.NearCache;
import dev.ratelimit.interceptor.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.store.resilience.CircuitProbe;
import dev.ratelimit.interceptor.store.resilience.FailurePolicy;
import dev.ratelimit.interceptor.web.ServletCurrentClient;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
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
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Installs the rate limiter in any Spring Boot app (its web layer, where it is a servlet web app, is
 * {@link RateLimitWebMvcAutoConfiguration}): counters in Redis ({@code ratelimit.store=redis},
 * the default), on a connection of the limiter's own ({@link LimiterRedisServer} says to which Redis),
 * behind a circuit breaker and a near cache of denials, or in this process ({@code memory}, which touches
 * no Redis at all); every part is a bean an app can replace by declaring its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
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

    /**
     * The Redis the limiter connects to when the app does not use Spring Boot's Redis:
     * {@code ratelimit.redis.url}, else {@code spring.data.redis.*}.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnLimiterRedis
    LimiterRedisServer rateLimitRedisServer(RateLimitProperties properties, Environment environment) {
        String url = properties.redis().url();
        return url != null ? LimiterRedisServer.ofUrl(url, "ratelimit.redis.url") : LimiterRedisServer.ofProperties(environment);
    }

    /** The limiter's own connection, with the limiter's short timeout; never a bean the app's Redis use would see. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LimiterRedisServer.class)
    LimiterRedisConnection rateLimitRedisConnection(LimiterRedisServer server, RateLimitProperties properties) {
        return LimiterConnectionFactory.create(server, properties.redis(), properties.redisFailure().probeInterval());
    }

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

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LimiterRedisConnection.class)
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
    CircuitBreaker rateLimitCircuitBreaker(RateLimitProperties properties) {
        RateLimitProperties.RedisFailure failure = properties.redisFailure();
        return new CircuitBreaker(failure.threshold(), failure.mode().whileRedisIsAway(), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({CircuitBreaker.class, LimiterRedisConnection.class})
    CircuitProbe rateLimitCircuitProbe(CircuitBreaker circuit, LimiterRedisConnection redis,
                                       RateLimitProperties properties) {
        return new CircuitProbe(circuit, redis::probe, properties.redisFailure().probeInterval());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LimiterRedisConnection.class)
    @ConditionalOnProperty(prefix = "ratelimit.near-cache", name = "enabled", matchIfMissing = true)
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
    NearCache rateLimitNearCache(RateLimitProperties properties) {
        return new NearCache(properties.nearCache().maxEntries());
    }

    /**
     * Redis while it answers; while it does not, the failure policy ({@code ratelimit.redis-failure.*});
     * in front of both, the denials this instance remembers ({@code ratelimit.near-cache.*}). The
     * connection is opened and the scripts loaded from here, while the app makes its other beans, and before
     * it takes requests.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({LimiterRedisConnection.class, CircuitBreaker.class})
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
    RateLimitStore rateLimitStore(LimiterRedisConnection redis, CircuitBreaker circuit,
                                  ObjectProvider<NearCache> nearCache, ObjectProvider<HeldPermits> heldPermits,
                                  ObjectProvider<LiveInstances> liveInstances, RedisKeys keys, RuleNaming naming,
                                  RateLimitProperties properties) {
        RateLimitProperties.RedisFailure failure = properties.redisFailure();
        RateLimitStore local = failure.mode() == FailurePolicy.LOCAL
                ? new MemoryRateLimitStore(Clock.systemUTC(), properties.memory().maxKeys()) : null;
        RedisRateLimitStore redisStore = new RedisRateLimitStore(redis);
        redisStore.beginOpening(properties.redis().connectTimeout());
        RedisStoreChain chain = RedisStoreChain.on(redisStore).failingOver(circuit, failure.mode(), local,
                failure.instances(), failure.probeInterval());
        HeldPermits upkeep = heldPermits.getIfAvailable();
        if (upkeep != null) {
            RateLimitProperties.HotKeys hotKeys = properties.hotKeys();
            LiveInstances live = liveInstances.getIfAvailable();
            chain = chain.batchingHotCounters(upkeep, live != null ? live : failure::instances, hotKeys.threshold(),
                    hotKeys.batchFor(), hotKeys.maxHold());
        }
        NearCache denials = nearCache.getIfAvailable();
        return denials == null ? chain.store() : chain.behind(denials);
    }

    /** Keeps the batches of hot counters, which the store's bean builds. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LimiterRedisConnection.class)
    @ConditionalOnProperty(prefix = "ratelimit.hot-keys", name = "enabled", matchIfMissing = true)
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
    HeldPermits rateLimitHeldPermits() {
        return new HeldPermits();
    }

    /** The rules named in {@code ratelimit.hot-keys.excluded-rules}: each must be a rule of this module. */
    private static Set<RuleId> excludedFromBatches(List<String> excludedRules, String module) {
        Set<RuleId> rules = new HashSet<>();
        for (String text : excludedRules) {
            RuleId rule = RuleId.parse(text, List.of(module));
            if (rule == null) {
                throw new IllegalArgumentException("ratelimit.hot-keys.excluded-rules: '" + text
                        + "' names no rule of this module (" + module + "): write <module>.<rule>");
            }
            rules.add(rule);
        }
        return rules;
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "memory")
    RateLimitStore rateLimitMemoryStore(RateLimitProperties properties) {
        return new MemoryRateLimitStore(Clock.systemUTC(), properties.memory().maxKeys());
    }

    @Bean
    @ConditionalOnMissingBean
    LimitExpressions rateLimitExpressions() {
        return LimitExpressions.create();
    }

    @Bean
    @ConditionalOnMissingBean
    EndpointCatalog rateLimitEndpointCatalog(RuleNaming naming, RateLimitStore store, LimitExpressions expressions,
                                             RateLimitProperties properties) {
        return new EndpointCatalog(naming, store.supportedAlgorithms(), expressions.keys()::get,
                expressions.responses()::get, expressions.requests()::get, properties.concurrency().lease());
    }

    /**
     * On the connection of the limiter's background work, so that a hash Redis lost is found and put back at
     * once; each write kept in the durable copy, when there is one, before it returns.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LimiterRedisConnection.class)
    SysConfigRepository rateLimitSysConfigRepository(LimiterRedisConnection limiter, RedisKeys keys,
                                                     ObjectProvider<DurableConfigCopy> copy) {
        return new SysConfigRepository(limiter.backgroundWork(), keys, copy.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    EvictionPolicy rateLimitEvictionPolicy(LimiterRedisConnection limiter, RedisKeys keys) {
        return new EvictionPolicy(limiter.backgroundWork(), keys.sysconfig(), Clock.systemUTC());
    }

    /** Warns once at start-up when a full Redis may evict operators' rules. */
    @Bean
    @ConditionalOnMissingBean(name = "rateLimitEvictionPolicyCheck")
    @ConditionalOnBean(EvictionPolicy.class)
    StartupTask rateLimitEvictionPolicyCheck(EvictionPolicy policy) {
        return new StartupTask("read Redis' maxmemory-policy", policy::check);
    }

    /** Without Redis (an in-process store and no Redis client) the annotations' limits apply as declared. */
    @Bean
    @ConditionalOnMissingBean
    RuleSnapshotHolder rateLimitRuleSnapshotHolder(ObjectProvider<SysConfigRepository> repository,
                                                   ObjectProvider<DurableConfigCopy> copy,
                                                   ObjectProvider<ConfigReadListener> listeners,
                                                   RateLimitProperties properties) {
        SysConfigRepository config = repository.getIfAvailable();
        RateLimitProperties.Config settings = properties.config();
        return new RuleSnapshotHolder(config == null ? ConfigHash.NONE : config,
                config == null ? null : copy.getIfAvailable(), () -> listeners.orderedStream().toList(),
                settings.refreshInterval(), settings.checkInterval(), settings.initialLoadTimeout(),
                Clock.systemUTC());
    }

    /**
     * What a change announced or reported does: refreshes the snapshot at once, and clears the near cache's
     * denials, since a change may free a client.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    ConfigChangeListener rateLimitConfigChangeListener(RuleSnapshotHolder snapshots, ObjectProvider<NearCache> nearCache,
            ObjectProvider<RateLimitStore> store) {
        NearCache denials = nearCache.getIfAvailable();
        // What the stores keep in the process (in-process counters, the fallback's, permits of hot counters): an
        // unblock resets it here, as it resets a counter in Redis.
        RateLimitStore counters = store.getIfAvailable();
        Consumer<String> counterReset = counters == null ? counterKey -> { } : counters::counterReset;
        return new ConfigChangeListener(snapshots, denials == null ? () -> { } : denials::clear, counterReset);
    }

    /**
     * The announcements. Subscribed when the app is ready, not with the context, so that a Redis that is away
     * neither delays nor fails the start; on the limiter's own client, so that a subscription being made while
     * Redis hangs never holds anything of the app's.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ConfigChangeListener.class)
    ConfigChangeSubscription rateLimitConfigChangeSubscription(LimiterRedisConnection limiter, RedisKeys keys,
                                                               ConfigChangeListener listener) {
        return new ConfigChangeSubscription(limiter::connectPubSub, keys.configChangedChannel(), listener);
    }

    @Bean
    @ConditionalOnMissingBean(name = "rateLimitConfigChangeSubscriptionTask")
    @ConditionalOnBean(ConfigChangeSubscription.class)
    StartupTask rateLimitConfigChangeSubscriptionTask(ConfigChangeSubscription subscription, RedisKeys keys) {
        return new StartupTask("subscribe to " + keys.configChangedChannel(), subscription::subscribe);
    }

    /**
     * Reports every write of the config hash to this instance, a hand edit that announces nothing included.
     * Armed when the app is ready, like the subscription.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ConfigChangeListener.class)
    ConfigHashTracking rateLimitConfigHashTracking(LimiterRedisConnection limiter, RedisKeys keys,
                                                   ConfigChangeListener listener, RateLimitProperties properties) {
        return new ConfigHashTracking(limiter::client, keys.sysconfig(), listener::hashChanged,
                properties.redis().connectTimeout());
    }

    @Bean
    @ConditionalOnMissingBean(name = "rateLimitConfigHashTrackingTask")
    @ConditionalOnBean(ConfigHashTracking.class)
    StartupTask rateLimitConfigHashTrackingTask(ConfigHashTracking tracking, RedisKeys keys) {
        return new StartupTask("track changes of " + keys.sysconfig(), tracking::arm);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    SysConfigEditor rateLimitSysConfigEditor(SysConfigRepository repository, EndpointCatalog catalog,
                                             RuleSnapshotHolder snapshots, ObjectProvider<SysConfigDefaults> defaults) {
        // A write while Redis does not hold the hash: this instance puts back its snapshot or, having none (a
        // fresh Redis, its declarations not merged yet), its declarations; then the write is made.
        return new SysConfigEditor(repository, Clock.systemUTC(), catalog::declares, () -> {
            snapshots.refresh();
            defaults.ifAvailable(SysConfigDefaults::write);
        });
    }

    /** This app's rules as a document, exported and imported from code. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigEditor.class)
    RuleDocuments rateLimitRuleDocuments(RuleCatalog catalog, SysConfigEditor editor) {
        return new RuleDocuments(catalog, editor);
    }

    /** The app's declarations in the config hash: merged at start-up, and again whenever they go missing. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    SysConfigDefaults rateLimitConfigDefaults(EndpointCatalog catalog, SysConfigRepository repository,
                                              RuleSnapshotHolder snapshots) {
        return new SysConfigDefaults(catalog, repository, snapshots);
    }

    @Bean
    @ConditionalOnMissingBean(name = "rateLimitConfigDefaultsWrite")
    @ConditionalOnBean(SysConfigDefaults.class)
    StartupTask rateLimitConfigDefaultsWrite(SysConfigDefaults defaults) {
        return new StartupTask("write the rate limit config defaults", defaults::write);
    }

    @Bean
    @ConditionalOnMissingBean
    InterceptionLog rateLimitInterceptionLog() {
        return InterceptionLog.DISCARD;
    }

    /** The whitelist of the properties; the config hash's is read with the rest of the hash. */
    @Bean
    @ConditionalOnMissingBean
    Whitelist rateLimitWhitelist(RateLimitProperties properties) {
        try {
            return Whitelist.of(properties.whitelist().ips(), properties.whitelist().users());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ratelimit.whitelist.ips: " + e.getMessage(), e);
        }
    }

    /** Outcomes since the start, for the actuator endpoint; Micrometer's meters come on top when present. */
    @Bean
    @ConditionalOnMissingBean
    OutcomeCounts rateLimitOutcomeCounts() {
        return new OutcomeCounts();
    }

    /** This app's rules in force: what the decision path, the allowance service and the actuator ask. */
    @Bean
    @ConditionalOnMissingBean
    RuleCatalog rateLimitRuleCatalog(EndpointCatalog endpoints, RuleSnapshotHolder snapshots) {
        return new RuleCatalog(endpoints, snapshots);
    }

    /** The leases of this instance's requests running under concurrency limits. */
    @Bean
    @ConditionalOnMissingBean
    HeldLeases rateLimitHeldLeases(RateLimitProperties properties) {
        return new HeldLeases(properties.concurrency().maxHold());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitStore.class)
    LeaseRenewal rateLimitLeaseRenewal(HeldLeases leases, RateLimitStore store) {
        return new LeaseRenewal(leases, store);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitStore.class)
    RequestLimiter rateLimitRequestLimiter(RuleCatalog catalog, RedisKeys keys, RateLimitStore store,
                                           InterceptionLog interceptionLog, ObjectProvider<RateLimitMetrics> metrics,
                                           Whitelist whitelist, RateLimitProperties properties, HeldLeases leases,
                                           ObjectProvider<ObservationRegistry> observations,
                                           ObjectProvider<VerdictObservationConvention> convention) {
        return new RequestLimiter(catalog, keys, store, interceptionLog,
                RateLimitMetrics.all(metrics.orderedStream().toList()), whitelist, Clock.systemUTC(),
                properties.quota().zone(), leases, observations.getIfAvailable(() -> ObservationRegistry.NOOP),
                convention.getIfAvailable(), excludedFromBatches(properties.hotKeys().excludedRules(), catalog.naming().module()));
    }

    /** The paths the limiter never sees: its interceptor skips them, and the API index leaves them out. */
    @Bean
    @ConditionalOnMissingBean
    ExcludedPaths rateLimitExcludedPaths(RateLimitProperties properties) {
        return new ExcludedPaths(properties.excludedPaths());
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
