package dev.ratelimit.interceptor.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when the limiter uses a Redis: for its counters ({@code ratelimit.store=redis}, the default), or,
 * with counters in the process, only when {@code ratelimit.redis.url} names one on purpose. An in-process
 * store never connects to a Redis it merely finds configured for the app ({@code spring.data.redis.*}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(ConditionalOnLimiterRedis.LimiterRedisCondition.class)
@interface ConditionalOnLimiterRedis {

    final class LimiterRedisCondition extends AnyNestedCondition {

        LimiterRedisCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = "ratelimit", name = "store", havingValue = "redis", matchIfMissing = true)
        static class CountersInRedis {
        }

        @ConditionalOnProperty(prefix = "ratelimit.redis", name = "url")
        static class RedisNamed {
        }
    }
}
