package dev.ratelimit.bench.advice;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.advice.DemandRecorder;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.lease.HeldLeases;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.HttpHandler;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import dev.ratelimit.interceptor.testsupport.TestRequest;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
 * recorder and with it. The store is in process, so the figures are the decision's CPU, not a Redis round trip;
 * the recorder's writes to Redis run on a thread of their own every few seconds and are not part of it (it is
 * not started here). Run: {@code java -cp ... org.openjdk.jmh.Main DemandRecordingBenchmark}.
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

    private RedisServerProcess redis;
    private RuleSnapshotHolder snapshots;
    private RequestLimiter limiter;
    private Endpoint open;
    private Endpoint tight;
    private final TestRequest[] clients = new TestRequest[1024];
    private int next;

    @Setup(Level.Trial)
    public void start() throws NoSuchMethodException {
        redis = RedisServerProcess.start();
        RedisKeys keys = new RedisKeys("ratelimit");
        SysConfigRepository repository = new SysConfigRepository(redis.connection().backgroundWork(), keys);
        snapshots = new RuleSnapshotHolder(repository, null, List::of, Duration.ofSeconds(30), Duration.ofSeconds(1),
                Duration.ofSeconds(3), Clock.systemUTC());
        EndpointCatalog endpoints = new EndpointCatalog(new RuleNaming("bench"), EnumSet.allOf(Algorithm.class),
                key -> { }, countWhen -> { }, cost -> { }, ShippedDefaults.LEASE);
        endpoints.registerHandlers(List.of(
                new HttpHandler(Orders.class, Orders.class.getMethod("open"), List.of("/open"), Set.of()),
                new HttpHandler(Orders.class, Orders.class.getMethod("tight"), List.of("/tight"), Set.of())));
        open = endpoint(endpoints, "open");
        tight = endpoint(endpoints, "tight");
        RateLimitMetrics metrics = recording == Recording.ON
                ? new DemandRecorder(redis.connection().backgroundWork(), keys, Duration.ofSeconds(5),
                        ShippedDefaults.NEAR_CACHE_ENTRIES, Clock.systemUTC())
                : new NoMetrics();
        limiter = new RequestLimiter(new RuleCatalog(endpoints, snapshots), keys,
                new MemoryRateLimitStore(Clock.systemUTC(), 10_000), InterceptionLog.DISCARD, metrics,
                Whitelist.EMPTY, Clock.systemUTC(), ZoneOffset.UTC,
                new HeldLeases(ShippedDefaults.LEASE_MAX_HOLD), ObservationRegistry.NOOP, null, Set.of());
        for (int i = 0; i < clients.length; i++) {
            clients[i] = new TestRequest("user-" + i, "192.0.2.1", 1);
        }
        for (TestRequest client : clients) {
            limiter.decide(tight, client); // each client's one admission: every later request is refused
        }
    }

    private static Endpoint endpoint(EndpointCatalog endpoints, String method) {
        return endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().endsWith("." + method))
                .findFirst().orElseThrow();
    }

    @TearDown(Level.Trial)
    public void stop() {
        snapshots.destroy();
        redis.close();
    }

    /** An allowed decision (the limit is never reached), the user cycling over 1,024. */
    @Benchmark
    public Verdict allowed() {
        next = (next + 1) & (clients.length - 1);
        Verdict verdict = limiter.decide(open, clients[next]);
        if (verdict.kind() != Verdict.Kind.ADMIT) {
            throw new IllegalStateException("the benchmark's limit was reached: " + verdict);
        }
        return verdict;
    }

    /** A refused decision (one request an hour), the user cycling over 1,024. */
    @Benchmark
    public Verdict refused() {
        next = (next + 1) & (clients.length - 1);
        Verdict verdict = limiter.decide(tight, clients[next]);
        if (verdict.kind() != Verdict.Kind.REJECT) {
            throw new IllegalStateException("the benchmark's client was admitted: " + verdict);
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

    /** Meters are not what is measured here. */
    private static final class NoMetrics implements RateLimitMetrics {

        @Override
        public void outcome(RuleId rule, Outcome outcome) {
        }

        @Override
        public void decided(long nanos) {
        }
    }
}
