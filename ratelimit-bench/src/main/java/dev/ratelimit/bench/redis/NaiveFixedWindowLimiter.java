package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import java.time.Duration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The fixed window of the field notes this project started from: {@code HINCRBY} the count, then, as
 * separate commands, {@code TTL} to find an orphan and {@code EXPIRE} on a new or orphaned key. Two
 * round trips per decision in the steady state, three on the first request of a window.
 */
final class NaiveFixedWindowLimiter implements Limiter {

    private final AppTemplate app;
    private final StringRedisTemplate redis;
    private final long count;
    private final Duration window;

    NaiveFixedWindowLimiter(AppTemplate app, BenchLimit limit) {
        this.app = app;
        this.redis = app.template;
        this.count = limit.count();
        this.window = limit.window();
    }

    @Override
    public boolean tryAcquire(int key) {
        String counter = KeySpread.key(key);
        long attempts = redis.opsForHash().increment(counter, "count", 1);
        if (attempts == 1 || redis.getExpire(counter) == -1) {
            redis.expire(counter, window);
        }
        return attempts <= count;
    }

    @Override
    public void close() {
        app.close();
    }
}
