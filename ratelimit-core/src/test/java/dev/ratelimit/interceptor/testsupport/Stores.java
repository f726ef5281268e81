package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.LimiterRedisClient;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.util.List;
import java.util.function.Supplier;

/** Stores as tests use them directly, with the settings an app gets by default. */
public final class Stores {

    private Stores() {
    }

    /**
     * A limiter connection to the server on {@code port} of this machine, with the shipped timeouts and Lettuce's
     * default client options; its {@code destroy()} shuts its client down.
     */
    public static LimiterRedisConnection connection(int port) {
        RedisURI server = RedisURI.create("127.0.0.1", port);
        RedisClient client = RedisClient.create(server);
        return connection(() -> LimiterRedisClient.of(client, server), client::shutdown);
    }

    /** The same, to a Redis Cluster through its seed nodes. */
    public static LimiterRedisConnection clusterConnection(List<RedisURI> seeds) {
        RedisClusterClient client = RedisClusterClient.create(seeds);
        return connection(() -> LimiterRedisClient.of(client), client::shutdown);
    }

    private static LimiterRedisConnection connection(Supplier<LimiterRedisClient> client,
                                                     Runnable shutdown) {
        return new LimiterRedisConnection(client, ShippedDefaults.SILENCE, ShippedDefaults.MAX_WAIT, shutdown);
    }

    /** The decisions of a store that must have decided; fails the test with the store's reason otherwise. */
    public static List<Decision> decided(StoreResult result) {
        if (result instanceof StoreResult.Decided decided) {
            return decided.decisions();
        }
        throw new AssertionError("the store did not decide: " + ((StoreResult.NotDecided) result).reason());
    }

    /** One counter, decided. */
    public static Decision decide(RateLimitStore store, CounterRequest request) {
        return decided(store.acquire(List.of(request))).get(0);
    }
}
