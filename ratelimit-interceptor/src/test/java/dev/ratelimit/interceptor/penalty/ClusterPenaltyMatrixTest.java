package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.context.ConfigurableApplicationContext;

/** The penalty matrix on two instances on a Redis Cluster of three masters and three replicas. */
class ClusterPenaltyMatrixTest implements PenaltyMatrixContract {

    private static RedisClusterProcess cluster;
    private static List<ConfigurableApplicationContext> apps;

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
        apps = List.of(FixtureApplication.start(PenaltyMatrixApplication.class, cluster),
                FixtureApplication.start(PenaltyMatrixApplication.class, cluster));
    }

    @AfterAll
    static void stop() {
        if (apps != null) {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        cluster.close();
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return apps;
    }
}
