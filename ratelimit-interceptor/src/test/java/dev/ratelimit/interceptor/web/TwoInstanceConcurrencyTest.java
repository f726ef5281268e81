package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.testsupport.CallLimitsContract;
import dev.ratelimit.interceptor.testsupport.ConcurrencyLimitsContract;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ConfigHashLimitsContract;
import dev.ratelimit.interceptor.testsupport.DenyListContract;
import dev.ratelimit.interceptor.testsupport.LimitKindsContract;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.SettledCostsContract;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/** Two app instances on one Redis admit exactly the limit, no more and no less, under 64 concurrent clients. */
class TwoInstanceConcurrencyTest implements LimitKindsContract, ConfigHashLimitsContract, CallLimitsContract,
        DenyListContract, ConcurrencyLimitsContract, SettledCostsContract {

    private static final int THREADS_PER_INSTANCE = 32;
    private static final int REQUESTS_PER_THREAD = 5;
    private static final int THREADS = THREADS_PER_INSTANCE * 2;

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;
    static List<HttpProbe> instances;

    @BeforeAll
    static void start() {
        startInstances();
    }

    /** A Redis and two instances of the fixture app on it, with {@code properties}. */
    static void startInstances(String... properties) {
        redis = RedisServerProcess.start();
        first = FixtureApplication.start(redis.port(), properties);
        second = FixtureApplication.start(redis.port(), properties);
        instances = List.of(new HttpProbe(FixtureApplication.port(first)), new HttpProbe(FixtureApplication.port(second)));
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void admitsExactlyTheLimitAcrossInstances(Algorithm algorithm) throws Exception {
        int admitted = ConcurrentClients.admitted(THREADS, REQUESTS_PER_THREAD,
                thread -> admitted(instances.get(thread % 2), AlgorithmController.path(algorithm) + "?usercode=racer"));

        assertThat(admitted).isEqualTo(AlgorithmController.LIMIT);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(first, second);
    }

    /**
     * Every attempt that reaches Redis is counted there, denied ones too; the attempts of a client each
     * instance already knows to be blocked do not reach Redis at all (the near cache).
     */
    @Test
    void theFixedWindowCountsEveryAttemptThatReachesRedis() throws Exception {
        long nearCacheHitsBefore = nearCacheHits();

        int admitted = ConcurrentClients.admitted(THREADS, REQUESTS_PER_THREAD,
                thread -> admitted(instances.get(thread % 2), "/user?usercode=counter"));

        // Every request is decided by its counter's script or refused from an instance's near cache;
        // EVALSHA alone cannot tell, since the blocked-clients list is written by a script of its own.
        long fromNearCache = nearCacheHits() - nearCacheHitsBefore;
        assertThat(admitted).isEqualTo(50); // LimitedController.user
        assertThat(redis.commands().hget("ratelimit:counter:fixture:LimitedController.user:USER:counter", "count"))
                .isEqualTo(Long.toString(THREADS * REQUESTS_PER_THREAD - fromNearCache));
        assertThat(fromNearCache).isPositive();
    }

    private static long nearCacheHits() {
        return List.of(first, second).stream()
                .mapToLong(app -> (Long) app.getBean(NearCache.class).describe().get("hits")).sum();
    }

    static boolean admitted(HttpProbe instance, String path) {
        int status = instance.status(path);
        if (status != 200 && status != 429) {
            throw new AssertionError("unexpected status " + status + " from " + path);
        }
        return status == 200;
    }
}
