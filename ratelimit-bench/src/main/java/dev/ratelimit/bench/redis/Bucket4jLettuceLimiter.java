package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;

/**
 * Bucket4j's Lettuce proxy manager (compare-and-swap: read the serialized bucket, decide in the
 * client, write it back only if unchanged, retry otherwise), with the same burst and refill as the
 * limit, and keys that expire once the bucket would be full again, as ours do.
 */
final class Bucket4jLettuceLimiter implements Limiter {

    private final RedisClient client;
    private final BucketProxy[] buckets;

    Bucket4jLettuceLimiter(int port, BenchLimit limit, int keys) {
        client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        LettuceBasedProxyManager<byte[]> proxies = Bucket4jLettuce.casBasedBuilder(client)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(limit.window()))
                .build();
        BucketConfiguration configuration = BucketConfiguration.builder()
                .addLimit(bandwidth -> bandwidth.capacity(limit.count()).refillGreedy(limit.count(), limit.window()))
                .build();
        buckets = new BucketProxy[keys];
        for (int i = 0; i < keys; i++) {
            buckets[i] = proxies.builder().build(KeySpread.key(i).getBytes(StandardCharsets.UTF_8), () -> configuration);
        }
    }

    @Override
    public boolean tryAcquire(int key) {
        return buckets[key].tryConsume(1);
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
