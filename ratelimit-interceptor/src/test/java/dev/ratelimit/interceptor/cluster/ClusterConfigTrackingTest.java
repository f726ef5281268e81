package dev.ratelimit.interceptor.cluster;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * On a Redis Cluster, where tracking is per node: two instances track the config hash on the master that
 * holds it, so an edit by hand without announcement reaches both, and once that master is killed and its
 * replica promoted, they track it there and the next edit by hand reaches both too.
 */
class ClusterConfigTrackingTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final RuleId RULE = RuleId.of("fixture", "LimitedController.ip");
    private static final Duration APPLIED = Duration.ofSeconds(10);
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(30);

    private static RedisClusterProcess cluster;
    private static final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
        for (int i = 0; i < 2; i++) {
            apps.add(FixtureApplication.start(FixtureApplication.class, cluster, "ratelimit.config.refresh-interval=1h"));
        }
    }

    @AfterAll
    static void stop() {
        apps.forEach(ConfigurableApplicationContext::close);
        cluster.close();
    }

    @Test
    void anEditByHandReachesEveryInstanceBeforeAndAfterTheHashsMasterFailsOver() {
        int master = cluster.masterOf(cluster.slotOf(HASH));
        awaitTrackedOn(master);
        cluster.commands().hset(HASH, RULE + ".count", "41");
        awaitCount(41);

        cluster.kill(master);
        cluster.awaitFailover(master, FAILOVER_BOUND);
        awaitTrackedOn(master + RedisClusterProcess.MASTERS);
        cluster.commands().hset(HASH, RULE + ".count", "42");
        awaitCount(42);
    }

    /** Every instance's connection armed on {@code node}: the flags {@code t} (tracking) and {@code B} (broadcast). */
    private static void awaitTrackedOn(int node) {
        Awaitility.await("every instance tracks the hash on node " + node).atMost(FAILOVER_BOUND).ignoreExceptions()
                .until(() -> cluster.node(node).clientList().lines().filter(client -> Arrays.stream(client.split(" "))
                        .anyMatch(field -> field.startsWith("flags=") && field.contains("t") && field.contains("B")))
                        .count() == apps.size());
    }

    private static void awaitCount(long count) {
        Awaitility.await("count " + count + " applied on every instance").atMost(APPLIED).until(() ->
                apps.stream().allMatch(app -> app.getBean(RuleCatalog.class).current().limit(RULE)
                        .map(limit -> limit.count() == count).orElse(false)));
    }
}
