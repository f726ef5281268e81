package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson's {@code RRateLimiter} (one Lua script per decision), with its default client settings. */
final class RedissonLimiter implements Limiter {

    private final RedissonClient client;
    private final RRateLimiter[] limiters;

    RedissonLimiter(int port, BenchLimit limit, int keys) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        client = Redisson.create(config);
        limiters = new RRateLimiter[keys];
        for (int i = 0; i < keys; i++) {
            limiters[i] = client.getRateLimiter(KeySpread.key(i));
            limiters[i].trySetRate(RateType.OVERALL, limit.count(), limit.window());
        }
    }

    @Override
    public boolean tryAcquire(int key) {
        return limiters[key].tryAcquire();
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
