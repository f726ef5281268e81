package dev.ratelimit.bench.local;

import com.google.common.util.concurrent.RateLimiter;
import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.bench.StoreLimiter;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Clock;
import java.time.Duration;

/** Everything that decides in process in the benchmarks, with the same limit per key. */
public enum LocalContender {

    OURS_FIXED_WINDOW(Algorithm.FIXED_WINDOW),
    OURS_SLIDING_WINDOW(Algorithm.SLIDING_WINDOW),
    OURS_SLIDING_LOG(Algorithm.SLIDING_LOG),
    OURS_TOKEN_BUCKET(Algorithm.TOKEN_BUCKET),
    /**
     * Guava's smooth bursty limiter at the same rate. It holds at most one second of permits and starts
     * with none, so its burst is not the limit's: a difference of model, not of speed.
     */
    GUAVA(null) {
        @Override
        Limiter open(BenchLimit limit, int keys) {
            double perSecond = limit.count() * 1_000.0 / limit.window().toMillis();
            return new KeyedLimiter<>(keys, () -> RateLimiter.create(perSecond), RateLimiter::tryAcquire);
        }
    },
    RESILIENCE4J(null) {
        @Override
        Limiter open(BenchLimit limit, int keys) {
            RateLimiterConfig config = RateLimiterConfig.custom()
                    .limitForPeriod(Math.toIntExact(limit.count()))
                    .limitRefreshPeriod(limit.window())
                    .timeoutDuration(Duration.ZERO)
                    .build();
            return new KeyedLimiter<>(keys, () -> new AtomicRateLimiter("bench", config),
                    AtomicRateLimiter::acquirePermission);
        }
    },
    BUCKET4J_LOCAL(null) {
        @Override
        Limiter open(BenchLimit limit, int keys) {
            return new KeyedLimiter<>(keys,
                    () -> Bucket.builder()
                            .addLimit(bandwidth -> bandwidth.capacity(limit.count()).refillGreedy(limit.count(), limit.window()))
                            .build(),
                    bucket -> bucket.tryConsume(1));
        }
    };

    private final Algorithm algorithm;

    LocalContender(Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    /** A contender deciding {@code limit} on counters {@code 0..keys-1}. */
    Limiter open(BenchLimit limit, int keys) {
        return StoreLimiter.oneLimit(new MemoryRateLimitStore(Clock.systemUTC(), Math.max(keys, 100_000)), algorithm,
                limit, keys);
    }
}
