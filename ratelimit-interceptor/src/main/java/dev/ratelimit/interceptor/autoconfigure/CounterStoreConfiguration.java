package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.internal.instance.LiveInstances;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.internal.store.chain.RedisStoreChain;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitProbe;
import dev.ratelimit.interceptor.store.FailurePolicy;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Where the counters are: Redis, behind the failure policy ({@code ratelimit.redis-failure.*}), the batches of
 * hot counters ({@code ratelimit.hot-keys.*}) and the near cache of denials ({@code ratelimit.near-cache.*});
 * or this process ({@code ratelimit.store=memory}).
 */
class CounterStoreConfiguration {

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

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "memory")
    RateLimitStore rateLimitMemoryStore(RateLimitProperties properties) {
        return new MemoryRateLimitStore(Clock.systemUTC(), properties.memory().maxKeys());
    }
}
