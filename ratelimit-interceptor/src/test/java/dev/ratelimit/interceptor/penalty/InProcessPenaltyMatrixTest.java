package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The penalty matrix on an instance counting in process ({@code ratelimit.store=memory}), its config in the Redis {@code ratelimit.redis.url} names. */
class InProcessPenaltyMatrixTest implements PenaltyMatrixContract {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @BeforeAll
    static void start() {
        env.start(PenaltyMatrixApplication.class, "ratelimit.store=memory",
                "ratelimit.redis.url=redis://127.0.0.1:" + env.redis().port());
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return env.apps();
    }
}
