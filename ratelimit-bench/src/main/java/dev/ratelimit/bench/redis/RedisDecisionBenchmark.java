package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeyCursor;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.bench.StoreLimiter;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Decisions on one real {@code redis-server}, started fresh for each contender (every fork), so no
 * contender finds another's keys or a warm Redis. Threads are closed-loop clients: each sends its next
 * request when the previous one is answered.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RedisDecisionBenchmark {

    @Param
    public RedisContender contender;

    @Param({"HOT", "SPREAD"})
    public KeySpread keys;

    @Param({"ALLOW"})
    public BenchLimit limit;

    private RedisServerProcess redis;
    private Limiter limiter;

    @Setup(Level.Trial)
    public void start() {
        redis = RedisServerProcess.start();
        limiter = contender.open(redis, limit, keys.keys());
        if (limiter instanceof StoreLimiter) {
            awaitConnected(redis.connection());
        }
    }

    /**
     * Opens our store's connection before the threads start, as an app's start does: left to the first
     * decisions, a cold fork on a busy machine can take longer than a request may wait for it, and the
     * benchmark would measure the connection's opening, or fail.
     */
    private static void awaitConnected(LimiterRedisConnection connection) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!connection.probe()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the limiter's connection did not open within 30 s");
            }
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        limiter.close();
        redis.close();
    }

    @Benchmark
    public boolean decide(KeyCursor cursor) {
        return limiter.tryAcquire(cursor.next());
    }
}
