package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.ConfigHashLimitsContract;
import dev.ratelimit.interceptor.testsupport.DenyListContract;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code ratelimit.store=memory} in an app that has a Redis: the counters stay in the process, and the
 * plans, exceptions and dynamic rules an operator writes to the config hash apply to them all the same.
 */
class InProcessCountersWithRedisConfigTest implements ConfigHashLimitsContract, DenyListContract {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        app = env.start("ratelimit.store=memory");
    }

    @Test
    void countsInProcess() {
        assertThat(app.getBean(RateLimitStore.class)).isInstanceOf(MemoryRateLimitStore.class);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(app);
    }
}
