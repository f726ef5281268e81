package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.blocked.BlockedClientRecorder;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.internal.instance.InstanceDirectory;
import dev.ratelimit.interceptor.internal.instance.InstanceHeartbeat;
import dev.ratelimit.interceptor.internal.instance.InstanceState;
import dev.ratelimit.interceptor.internal.instance.LiveInstances;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.stats.TrafficRecorder;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The live picture every instance shares through Redis ({@code ratelimit.stats.*}): each limited app
 * writes its traffic per rule, the clients it blocks and its heartbeat; anything with the Redis (the
 * console, the actuator endpoint) reads them.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnBean({LimiterRedisConnection.class, RedisKeys.class})
public class RateLimitStatsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TrafficStatistics rateLimitTrafficStatistics(LimiterRedisConnection limiter, RedisKeys keys) {
        return new TrafficStatistics(limiter.backgroundWork(), keys);
    }

    /** On the connection of the limiter's background work: it reads the instances for the hot counters' shares. */
    @Bean
    @ConditionalOnMissingBean
    InstanceDirectory rateLimitInstanceDirectory(LimiterRedisConnection limiter, RedisKeys keys) {
        return new InstanceDirectory(limiter.backgroundWork(), keys);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SysConfigRepository.class)
    BlockedClients rateLimitBlockedClients(LimiterRedisConnection limiter, RedisKeys keys, SysConfigRepository config) {
        return new BlockedClients(limiter.backgroundWork(), keys, config, Clock.systemUTC());
    }

    /**
     * The writers, in an app the limiter protects: on the connection of the limiter's background work, which
     * refuses commands at once while Redis is away, so that neither they nor their last writes when the app
     * stops wait long.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(RequestLimiter.class)
    @ConditionalOnProperty(prefix = "ratelimit.stats", name = "enabled", matchIfMissing = true)
    static class Writers {

        @Bean
        @ConditionalOnMissingBean
        TrafficRecorder rateLimitTrafficRecorder(LimiterRedisConnection limiter, RedisKeys keys,
                                                 RateLimitProperties properties) {
            return new TrafficRecorder(limiter.backgroundWork(), keys, properties.stats().flushInterval(),
                    Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        BlockedClientRecorder rateLimitBlockedClientRecorder(LimiterRedisConnection limiter, RedisKeys keys,
                                                             RateLimitProperties properties) {
            RateLimitProperties.Stats stats = properties.stats();
            return new BlockedClientRecorder(limiter.backgroundWork(), keys, stats.flushInterval(),
                    stats.maxBlockedClients(), stats.maxBlockedClients(), Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        InstanceHeartbeat rateLimitInstanceHeartbeat(LimiterRedisConnection limiter, RedisKeys keys,
                                                     RuleNaming naming, RateLimitStore store,
                                                     ObjectProvider<CircuitBreaker> circuit,
                                                     ObjectProvider<NearCache> nearCache,
                                                     RuleSnapshotHolder snapshots, HeldLeases leases,
                                                     ObjectProvider<HeldPermits> permits,
                                                     RateLimitProperties properties) {
            InstanceState state = new InstanceState(naming.module(), store.describe().type(),
                    circuit.getIfAvailable(), nearCache.getIfAvailable(), snapshots, leases, permits.getIfAvailable());
            return new InstanceHeartbeat(limiter.backgroundWork(), keys, state,
                    properties.stats().heartbeatInterval(), Clock.systemUTC());
        }

        /** The instances that share this app's hot counters, as their heartbeats say. */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnProperty(prefix = "ratelimit.hot-keys", name = "enabled", matchIfMissing = true)
        LiveInstances rateLimitLiveInstances(InstanceDirectory directory, ObjectProvider<InstanceHeartbeat> heartbeat,
                                             RuleNaming naming, RateLimitProperties properties) {
            // The heartbeat is asked for lazily: it reads the store, which needs the instances.
            return new LiveInstances(directory, () -> heartbeat.getObject().id(), naming.module(),
                    properties.stats().heartbeatInterval(), properties.redisFailure().instances());
        }
    }
}
