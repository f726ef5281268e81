package dev.ratelimit.interceptor.exactness;

import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.KilledInstanceContract;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** {@link KilledInstanceContract} on one Redis; {@code ClusterLimitingTest} runs it on a Cluster. */
class KilledInstanceTest implements KilledInstanceContract {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @BeforeAll
    static void start() {
        env.start();
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return env.apps();
    }

    @Override
    public ChildApp startChild() {
        return ChildApp.start(env.redis().port());
    }
}
