package dev.ratelimit.test;

import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Resets the limits of an app under test: every counter and penalty, every denial the app's near cache
 * remembers and every permit of a hot counter it holds, so that each test starts with the full limit.
 * Counters in this process ({@code ratelimit.store=memory}, or the fallback's during an outage) are
 * cleared; counters in Redis are deleted from the Redis the app is
 * connected to (a test's own Redis: every key under {@code <prefix>:counter:} and their penalty hashes; on a
 * Redis Cluster, Lettuce's SCAN walks every master).
 * Rules, switches and the rest of the config hash stay as they are.
 */
public final class RateLimitCounters {

    private static final int SCAN_BATCH = 1000;

    private RateLimitCounters() {
    }

    public static void reset(ApplicationContext app) {
        app.getBean(RateLimitStore.class).allCountersReset();
        app.getBeanProvider(LimiterRedisConnection.class).ifAvailable(connection -> {
            StringRedisTemplate redis = connection.backgroundWork();
            String counters = app.getBean(RedisKeys.class).counterPrefix();
            deleteMatching(redis, glob(counters) + "*");
            deleteMatching(redis, "{" + glob(counters) + "*}:penalty");
        });
    }

    private static void deleteMatching(StringRedisTemplate redis, String pattern) {
        List<String> batch = new ArrayList<>(SCAN_BATCH);
        try (Cursor<String> keys = redis.scan(ScanOptions.scanOptions().match(pattern).count(SCAN_BATCH).build())) {
            while (keys.hasNext()) {
                batch.add(keys.next());
                if (batch.size() == SCAN_BATCH) {
                    redis.delete(batch);
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) {
            redis.delete(batch);
        }
    }

    /** {@code text} matched literally by a SCAN pattern. */
    private static String glob(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
