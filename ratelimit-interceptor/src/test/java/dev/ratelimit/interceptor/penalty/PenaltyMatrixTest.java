package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The penalty matrix on two instances on one Redis, with the shipped defaults. */
class PenaltyMatrixTest implements PenaltyMatrixContract {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @BeforeAll
    static void start() {
        env.start(PenaltyMatrixApplication.class);
        env.start(PenaltyMatrixApplication.class);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return env.apps();
    }
}
