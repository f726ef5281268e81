package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.blocked.BlockedClientRecorder;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.ConfigHashLimitsContract;
import dev.ratelimit.interceptor.testsupport.DenyListContract;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code ratelimit.store=memory} with a Redis named for the limiter ({@code ratelimit.redis.url}): the counters stay in the process, and the
 * plans, exceptions and dynamic rules an operator writes to the config hash apply to them all the same, and
 * an operator's Unblock frees a client.
 */
class InProcessCountersWithRedisConfigTest implements ConfigHashLimitsContract, DenyListContract {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        app = env.start("ratelimit.store=memory", "ratelimit.redis.url=redis://127.0.0.1:" + env.redis().port());
    }

    @Test
    void countsInProcess() {
        assertThat(app.getBean(RateLimitStore.class)).isInstanceOf(MemoryRateLimitStore.class);
    }

    /** What the console's Unblock does: the counter, kept in the process, is reset when the reset is announced. */
    @Test
    void anUnblockFreesAClientWhoseCounterIsInTheProcess() {
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        String path = PenaltyController.path(Algorithm.FIXED_WINDOW) + "?usercode=ulla";
        for (int i = 0; i < PenaltyController.LIMIT; i++) {
            assertThat(http.status(path)).isEqualTo(200);
        }
        assertThat(http.status(path)).isEqualTo(429);
        BlockedClients blocked = app.getBean(BlockedClients.class);
        app.getBean(BlockedClientRecorder.class).flush();
        BlockedClient ulla = blocked.now(List.of("fixture"), 100).stream()
                .filter(client -> client.identity().equals("ulla")).findFirst().orElseThrow();
        assertThat(http.status(path)).as("blocked for the penalty").isEqualTo(429);

        blocked.unblock(ulla.module(), ulla.member());

        Awaitility.await("admitted again").atMost(Duration.ofSeconds(1)).until(() -> http.status(path) == 200);
        for (int i = 1; i < PenaltyController.LIMIT; i++) {
            assertThat(http.status(path)).as("the full count again").isEqualTo(200);
        }
        assertThat(http.status(path)).isEqualTo(429);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(app);
    }
}
