package dev.ratelimit.interceptor.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import io.lettuce.core.RedisURI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Decisions per second of the Redis store on one redis-server and on a cluster of three masters (and
 * three replicas), same client count, same keys, all processes on this machine. A measurement, not a
 * test of speed: run it on demand with {@code -Dratelimit.measure=true}; it prints the figures (to the
 * surefire output file) and checks only that every decision was made.
 */
@EnabledIfSystemProperty(named = "ratelimit.measure", matches = "true")
class ClusterThroughputMeasurement {

    private static final int CLIENTS = 16;
    private static final int DECISIONS = 200_000;
    private static final int KEYS = 10_000;

    @Test
    void decisionsPerSecondOnOneNodeAndOnACluster() throws Exception {
        double single;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            single = decisionsPerSecond(redis.connection());
        }
        double clustered;
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            LimiterRedisConnection connection = Stores.clusterConnection(Arrays.stream(cluster.nodeList().split(","))
                    .map(node -> RedisURI.create("redis://" + node)).toList());
            try {
                clustered = decisionsPerSecond(connection);
            } finally {
                connection.destroy();
            }
        }
        System.out.printf("Fixed window decisions, %d clients, %d decisions over %d keys: one node %.0f/s, "
                + "cluster of 3 masters %.0f/s (ratio %.2f)%n", CLIENTS, DECISIONS, KEYS, single, clustered,
                clustered / single);
    }

    private static double decisionsPerSecond(LimiterRedisConnection connection) throws Exception {
        RedisRateLimitStore store = new RedisRateLimitStore(connection);
        AtomicLong admitted = new AtomicLong();
        Concurrently.forEachIndex(CLIENTS, KEYS, i -> acquire(store, i, admitted)); // warm-up: scripts, connections, JIT
        admitted.set(0);
        long start = System.nanoTime();
        Concurrently.forEachIndex(CLIENTS, DECISIONS, i -> acquire(store, i, admitted));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(admitted.get()).as("every decision admitted (limit above the attempts per key)").isEqualTo(DECISIONS);
        return DECISIONS / seconds;
    }

    private static void acquire(RedisRateLimitStore store, int i, AtomicLong admitted) {
        CounterRequest request = new CounterRequest("ratelimit:counter:bench:rule:USER:" + (i % KEYS),
                Algorithm.FIXED_WINDOW, 1_000_000, 600_000);
        if (Stores.decide(store, request).allowed()) {
            admitted.incrementAndGet();
        }
    }
}
