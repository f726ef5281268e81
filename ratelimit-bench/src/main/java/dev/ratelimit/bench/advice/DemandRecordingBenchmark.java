package dev.ratelimit.bench.advice;

import dev.ratelimit.bench.InProcessDecisions;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.advice.DemandRecorder;
import dev.ratelimit.interceptor.advice.RedisDemandStore;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What recording the demand for the limit advisor ({@link DemandRecorder}) adds to one decision
 * ({@link RequestLimiter#decide}) of a fixed window, allowed and refused, side by side in one run: without the
 * recorder and with it. The store is in process ({@link InProcessDecisions}), so the figures are the decision's CPU,
 * not a Redis round trip; the recorder's writes to Redis run on a thread of their own every few seconds and are not
 * part of it (it is not started here). Run: {@code java -cp ... org.openjdk.jmh.Main DemandRecordingBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(2)
public class DemandRecordingBenchmark {

    /** Whether the decisions go to the demand recorder. */
    public enum Recording {
        OFF,
        ON
    }

    @Param
    public Recording recording;

    private InProcessDecisions decisions;
    private Endpoint open;
    private Endpoint tight;

    @Setup(Level.Trial)
    public void start() {
        decisions = new InProcessDecisions(Orders.class, redis -> recording == Recording.ON
                ? new DemandRecorder(new RedisDemandStore(redis, InProcessDecisions.KEYS), InProcessDecisions.KEYS,
                        Duration.ofSeconds(5), ShippedDefaults.NEAR_CACHE_ENTRIES, Clock.systemUTC())
                : InProcessDecisions.noMetrics(redis), ObservationRegistry.NOOP);
        open = decisions.endpoint("open");
        tight = decisions.endpoint("tight");
        decisions.decideForEveryone(tight); // each client's one admission: every later request is refused
    }

    @TearDown(Level.Trial)
    public void stop() {
        decisions.close();
    }

    /** An allowed decision (the limit is never reached), the user cycling over 1,024. */
    @Benchmark
    public Verdict allowed() {
        return expect(decisions.decide(open), Verdict.Kind.ADMIT);
    }

    /** A refused decision (one request an hour), the user cycling over 1,024. */
    @Benchmark
    public Verdict refused() {
        return expect(decisions.decide(tight), Verdict.Kind.REJECT);
    }

    private static Verdict expect(Verdict verdict, Verdict.Kind kind) {
        if (verdict.kind() != kind) {
            throw new IllegalStateException("expected " + kind + ", was " + verdict);
        }
        return verdict;
    }

    /** The controller whose limits are decided. */
    public static class Orders {

        @RateLimit(count = 1_000_000_000, interval = 1, unit = TimeUnit.HOURS)
        public String open() {
            return "ok";
        }

        @RateLimit(count = 1, interval = 1, unit = TimeUnit.HOURS)
        public String tight() {
            return "ok";
        }
    }
}
