package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.advice.DemandRecorder;
import dev.ratelimit.interceptor.advice.DemandStore;
import dev.ratelimit.interceptor.advice.InProcessDemandStore;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.interceptor.advice.RedisDemandStore;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RedisKeys;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The limit advisor: the demand each fixed-window rule sees, recorded by every instance with the live statistics
 * ({@code ratelimit.stats.enabled}), in the limiter's Redis, or in this process when the limiter has no Redis (the
 * in-process store), and what a limit would have refused of it.
 */
class AdviceConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DemandStore rateLimitDemandStore(ObjectProvider<LimiterRedisConnection> limiter, RedisKeys keys) {
        LimiterRedisConnection redis = limiter.getIfAvailable();
        return redis != null ? new RedisDemandStore(redis.backgroundWork(), keys)
                : new InProcessDemandStore(Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    LimitAdvisor rateLimitAdvisor(DemandStore store) {
        return new LimitAdvisor(store);
    }

    /** The refusals it follows without the store are the near cache's, so it keeps as many windows as that. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ratelimit.stats", name = "enabled", matchIfMissing = true)
    DemandRecorder rateLimitDemandRecorder(DemandStore store, RedisKeys keys, RateLimitProperties properties) {
        return new DemandRecorder(store, keys, properties.stats().flushInterval(), properties.nearCache().maxEntries(),
                Clock.systemUTC());
    }
}
