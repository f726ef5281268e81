package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.internal.store.batch.BatchingRateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;

/**
 * The settings an app gets by default, read from the constants the starter's properties take their defaults
 * from, so that tests of the core run the shipped defaults without the starter.
 */
public final class ShippedDefaults {

    /** {@code ratelimit.redis.timeout}. */
    public static final Duration SILENCE = duration(LimiterRedisConnection.DEFAULT_SILENCE);
    /** {@code ratelimit.redis.max-wait}. */
    public static final Duration MAX_WAIT = duration(LimiterRedisConnection.DEFAULT_MAX_WAIT);
    /** {@code ratelimit.concurrency.lease}. */
    public static final Duration LEASE = duration(HeldLeases.DEFAULT_LEASE);
    /** {@code ratelimit.concurrency.max-hold}. */
    public static final Duration LEASE_MAX_HOLD = duration(HeldLeases.DEFAULT_MAX_HOLD);
    /** {@code ratelimit.near-cache.max-entries}. */
    public static final int NEAR_CACHE_ENTRIES = Integer.parseInt(NearCache.DEFAULT_MAX_ENTRIES);
    /** {@code ratelimit.hot-keys.threshold}. */
    public static final long HOT_THRESHOLD = Long.parseLong(BatchingRateLimitStore.DEFAULT_THRESHOLD);
    /** {@code ratelimit.hot-keys.batch-for}. */
    public static final Duration BATCH_FOR = duration(BatchingRateLimitStore.DEFAULT_BATCH_FOR);
    /** {@code ratelimit.hot-keys.max-hold}. */
    public static final Duration BATCH_MAX_HOLD = duration(BatchingRateLimitStore.DEFAULT_MAX_HOLD);

    private ShippedDefaults() {
    }

    private static Duration duration(String text) {
        return DurationStyle.detectAndParse(text);
    }
}
