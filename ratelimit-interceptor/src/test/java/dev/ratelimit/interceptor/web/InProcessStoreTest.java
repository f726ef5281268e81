package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.CallLimitsContract;
import dev.ratelimit.interceptor.testsupport.ConcurrencyLimitsContract;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
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

/** {@code ratelimit.store=memory}: exact limits with no Redis server at all. */
class InProcessStoreTest implements LimitKindsContract, CallLimitsContract, ConcurrencyLimitsContract,
        SettledCostsContract {

    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        int nobodyListens = RedisServerProcess.freePort();
        app = FixtureApplication.start(nobodyListens, "ratelimit.store=memory",
                "ratelimit.config.initial-load-timeout=100ms");
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void countsInProcess() {
        assertThat(app.getBean(RateLimitStore.class)).isInstanceOf(MemoryRateLimitStore.class);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void admitsExactlyTheLimitToSixtyFourConcurrentClients(Algorithm algorithm) throws Exception {
        int admitted = ConcurrentClients.admitted(64, 5,
                thread -> TwoInstanceConcurrencyTest.admitted(http, AlgorithmController.path(algorithm) + "?usercode=racer"));

        assertThat(admitted).isEqualTo(AlgorithmController.LIMIT);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(app);
    }

}
