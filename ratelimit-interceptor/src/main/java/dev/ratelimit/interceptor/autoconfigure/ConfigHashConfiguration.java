package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.ConfigChangeListener;
import dev.ratelimit.interceptor.internal.config.ConfigChangeSubscription;
import dev.ratelimit.interceptor.config.ConfigHash;
import dev.ratelimit.interceptor.internal.config.ConfigHashTracking;
import dev.ratelimit.interceptor.config.ConfigReadListener;
import dev.ratelimit.interceptor.config.DurableConfigCopy;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigDefaults;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.config.document.RuleDocuments;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.internal.startup.StartupTask;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import java.time.Clock;
import java.util.function.Consumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The config hash every instance shares: read into an immutable snapshot, kept fresh by announcements and by
 * tracking the hash's writes, edited from code and the console, given the app's declarations at start-up. Without
 * a Redis, the snapshot holds the declarations alone.
 */
class ConfigHashConfiguration {

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
}
