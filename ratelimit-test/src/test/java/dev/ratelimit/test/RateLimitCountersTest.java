package dev.ratelimit.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.HotController;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * {@link RateLimitCounters#reset} gives a client that used up its limit, and was put under a penalty
 * for it, its full limit back, with counters in Redis and in the process; {@link EndpointLimit} tells
 * the exact limit from one off by one.
 */
class RateLimitCountersTest {

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void aResetGivesTheFullLimitBackOnRedis(Algorithm algorithm) throws Exception {
        assertTheResetGivesTheFullLimitBack(env.start(), algorithm);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void aResetGivesTheFullLimitBackInProcess(Algorithm algorithm) throws Exception {
        ConfigurableApplicationContext app = FixtureApplication.start(RedisServerProcess.freePort(),
                "ratelimit.store=memory", "ratelimit.config.initial-load-timeout=100ms");
        try {
            assertTheResetGivesTheFullLimitBack(app, algorithm);
        } finally {
            app.close();
        }
    }

    @Test
    void aResetGivesTheFullLimitBackOnEveryNodeOfARedisCluster() throws Exception {
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            ConfigurableApplicationContext app = FixtureApplication.start(FixtureApplication.class, cluster);
            try {
                MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) app).build();
                // Users whose counters land on every master, so that a reset of one node's keys would leave some.
                List<String> users = IntStream.range(0, 60).mapToObj(i -> "tess-" + i).toList();
                for (String user : users) {
                    EndpointLimit.of(mvc, () -> get(PenaltyController.path(Algorithm.FIXED_WINDOW)).param("usercode", user))
                            .admitsExactly(PenaltyController.LIMIT);
                }
                List<String> counters = cluster.counterKeys("tess-");
                assertThat(counters.stream().map(key -> cluster.masterOf(cluster.slotOf(key))).distinct())
                        .as("counters on every master").hasSize(RedisClusterProcess.MASTERS);

                RateLimitCounters.reset(app);

                assertThat(cluster.counterKeys("tess-")).isEmpty();
                for (String user : users) {
                    EndpointLimit.of(mvc, () -> get(PenaltyController.path(Algorithm.FIXED_WINDOW)).param("usercode", user))
                            .admitsExactly(PenaltyController.LIMIT);
                }
            } finally {
                app.close();
            }
        }
    }

    /**
     * A counter hot enough to be taken in batches: the instance holds permits of it, which the reset must void,
     * or the next test would have them on top of the full limit in Redis.
     */
    @Test
    void aResetVoidsThePermitsHeldOfAHotCounter() throws Exception {
        ConfigurableApplicationContext app = env.start();
        MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) app).build();
        HeldPermits held = app.getBean(HeldPermits.class);
        int sent = 0;
        while (held.permits() == 0 && sent < HotController.LIMIT - 1) {
            mvc.perform(get(HotController.PATH).param("usercode", "tess"));
            sent++;
        }
        assertThat(held.permits()).as("permits held after %d requests", sent).isPositive();

        RateLimitCounters.reset(app);

        assertThat(held.permits()).as("permits held after the reset").isZero();
        assertThat(held.counters()).as("counters batched after the reset").isZero();
        EndpointLimit.of(mvc, () -> get(HotController.PATH).param("usercode", "tess")).admitsExactly(HotController.LIMIT);
    }

    private static void assertTheResetGivesTheFullLimitBack(ConfigurableApplicationContext app, Algorithm algorithm)
            throws Exception {
        MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) app).build();
        EndpointLimit limit = EndpointLimit.of(mvc, () -> get(PenaltyController.path(algorithm)).param("usercode", "tess"));

        assertThat(limit.admitsExactly(PenaltyController.LIMIT).getHeader("Retry-After"))
                .as("blocked for the penalty").isEqualTo(Long.toString(PenaltyController.BLOCK_SECONDS));
        RateLimitCounters.reset(app);
        limit.admitsExactly(PenaltyController.LIMIT);

        RateLimitCounters.reset(app);
        assertThatThrownBy(() -> limit.admitsExactly(PenaltyController.LIMIT + 1)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("request " + (PenaltyController.LIMIT + 1) + " was refused with 429");
        RateLimitCounters.reset(app);
        assertThatThrownBy(() -> limit.admitsExactly(PenaltyController.LIMIT - 1)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("to be refused with 429 after " + (PenaltyController.LIMIT - 1) + " admitted");
    }
}
