package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import java.math.BigDecimal;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A token bucket in the manner of Spring Cloud Gateway's Redis rate limiter ({@code scg_token_bucket.lua}),
 * run as a Spring app would run it: {@code StringRedisTemplate.execute(RedisScript, ...)}, which sends
 * {@code EVALSHA} and falls back to {@code EVAL}.
 */
final class ScgTokenBucketLimiter implements Limiter {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> SCRIPT =
            RedisScript.of(new ClassPathResource("dev/ratelimit/bench/redis/scg_token_bucket.lua"), List.class);

    private final AppTemplate app;
    private final StringRedisTemplate redis;
    private final String rate;
    private final String capacity;

    ScgTokenBucketLimiter(AppTemplate app, BenchLimit limit) {
        this.app = app;
        this.redis = app.template;
        this.capacity = Long.toString(limit.count());
        // The gateway takes whole tokens per second; the script itself works with any rate, so the limit stays exact.
        this.rate = BigDecimal.valueOf(limit.count() * 1_000.0 / limit.window().toMillis()).toPlainString();
    }

    @Override
    public boolean tryAcquire(int key) {
        String id = KeySpread.key(key);
        List<?> reply = redis.execute(SCRIPT,
                List.of("request_rate_limiter.{" + id + "}.tokens", "request_rate_limiter.{" + id + "}.timestamp"),
                rate, capacity, "1");
        return ((Number) reply.get(0)).longValue() == 1;
    }

    @Override
    public void close() {
        app.close();
    }
}
