package dev.ratelimit.bench;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.HttpHandler;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import dev.ratelimit.interceptor.testsupport.TestRequest;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The request limiter of module {@code bench} over the in-process store, with the shipped defaults and the rules of
 * a controller's limited methods (the config hash on a redis-server of its own): what the benchmarks of one
 * decision's CPU share, so that what they compare is all that differs. {@link #decide} cycles over 1,024 users.
 */
public final class InProcessDecisions implements AutoCloseable {

    public static final RedisKeys KEYS = new RedisKeys("ratelimit");

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final RuleSnapshotHolder snapshots;
    private final EndpointCatalog endpoints;
    private final RequestLimiter limiter;
    private final TestRequest[] clients = new TestRequest[1024];
    private int next;

    /**
     * @param controller whose public methods with {@code @RateLimit} are the endpoints, {@code /<method>} each
     * @param metrics    what receives the decisions, made on the connection of the config hash's background work
     */
    public InProcessDecisions(Class<?> controller, Function<BackgroundCommands, RateLimitMetrics> metrics,
                              ObservationRegistry observations) {
        snapshots = new RuleSnapshotHolder(new SysConfigRepository(redis.connection().backgroundWork(), KEYS), null,
                List::of, Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(3), Clock.systemUTC());
        endpoints = new EndpointCatalog(new RuleNaming("bench"), EnumSet.allOf(Algorithm.class), key -> { },
                countWhen -> { }, cost -> { }, ShippedDefaults.LEASE);
        endpoints.registerHandlers(Arrays.stream(controller.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(RateLimit.class))
                .map(method -> handler(controller, method)).toList());
        limiter = new RequestLimiter(new RuleCatalog(endpoints, snapshots), KEYS,
                new MemoryRateLimitStore(Clock.systemUTC(), 10_000), InterceptionLog.DISCARD,
                metrics.apply(redis.connection().backgroundWork()), Whitelist.EMPTY, Clock.systemUTC(), ZoneOffset.UTC,
                new HeldLeases(ShippedDefaults.LEASE_MAX_HOLD), observations, null, Set.of());
        for (int i = 0; i < clients.length; i++) {
            clients[i] = new TestRequest("user-" + i, "192.0.2.1", 1);
        }
    }

    private static HttpHandler handler(Class<?> controller, Method method) {
        return new HttpHandler(controller, method, List.of("/" + method.getName()), Set.of());
    }

    /** The endpoint of the controller's method of that name. */
    public Endpoint endpoint(String method) {
        return endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().endsWith("." + method))
                .findFirst().orElseThrow();
    }

    /** One decision of {@code endpoint} for the next of the 1,024 users. */
    public Verdict decide(Endpoint endpoint) {
        next = (next + 1) & (clients.length - 1);
        return limiter.decide(endpoint, clients[next]);
    }

    /** One decision of {@code endpoint} for every user. */
    public void decideForEveryone(Endpoint endpoint) {
        for (TestRequest client : clients) {
            limiter.decide(endpoint, client);
        }
    }

    @Override
    public void close() {
        snapshots.destroy();
        redis.close();
    }

    /** Meters are not what these benchmarks measure. */
    public static RateLimitMetrics noMetrics(BackgroundCommands unused) {
        return new RateLimitMetrics() {
            @Override
            public void outcome(RuleId rule, Outcome outcome) {
            }

            @Override
            public void decided(long nanos) {
            }
        };
    }
}
