package dev.ratelimit.test;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ApplicationContext;

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
            RedisClusterCommands<String, String> redis = connection.backgroundWork().sync();
            String counters = app.getBean(RedisKeys.class).counterPrefix();
            deleteMatching(redis, glob(counters) + "*");
            deleteMatching(redis, "{" + glob(counters) + "*}:penalty");
        });
    }

    private static void deleteMatching(RedisClusterCommands<String, String> redis, String pattern) {
        List<String> batch = new ArrayList<>(SCAN_BATCH);
        ScanIterator<String> keys = ScanIterator.scan(redis, ScanArgs.Builder.matches(pattern).limit(SCAN_BATCH));
        while (keys.hasNext()) {
            batch.add(keys.next());
            if (batch.size() == SCAN_BATCH) {
                redis.del(batch.toArray(new String[0]));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            redis.del(batch.toArray(new String[0]));
        }
    }

    /** {@code text} matched literally by a SCAN pattern. */
    private static String glob(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
