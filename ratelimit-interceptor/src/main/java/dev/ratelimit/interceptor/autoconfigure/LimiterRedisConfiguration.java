package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The Redis the limiter talks to, on a connection of its own: {@code ratelimit.redis.url}, else the app's own
 * Redis as Spring Boot describes it ({@link RateLimitAutoConfiguration.AppRedis}), else {@code spring.data.redis.*}.
 * None with {@code ratelimit.store=memory} and no URL: the limiter then touches no Redis at all.
 */
class LimiterRedisConfiguration {

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
}
