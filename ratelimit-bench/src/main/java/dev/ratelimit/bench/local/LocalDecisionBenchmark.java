package dev.ratelimit.bench.local;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeyCursor;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
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

/**
 * Decisions in process: our in-memory store against single-process limiter libraries. Throughput only:
 * a decision takes tens of nanoseconds, about what timing it would cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LocalDecisionBenchmark {

    @Param
    public LocalContender contender;

    @Param({"HOT", "SPREAD"})
    public KeySpread keys;

    @Param({"ALLOW"})
    public BenchLimit limit;

    private Limiter limiter;

    @Setup(Level.Trial)
    public void start() {
        limiter = contender.open(limit, keys.keys());
    }

    @Benchmark
    public boolean decide(KeyCursor cursor) {
        return limiter.tryAcquire(cursor.next());
    }
}
