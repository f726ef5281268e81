package dev.ratelimit.interceptor.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.CallLimitsContract;
import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.ConcurrencyLimitsContract;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.ConfigHashLimitsContract;
import dev.ratelimit.interceptor.testsupport.DenyListContract;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.KilledInstanceContract;
import dev.ratelimit.interceptor.testsupport.LimitKindsContract;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import dev.ratelimit.interceptor.testsupport.SettledCostsContract;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of the fixture app on a real Redis Cluster of three masters and three replicas,
 * configured with nothing but {@code spring.data.redis.cluster.nodes}: every algorithm admits exactly
 * its limit for each of many identities whose counters are spread over all masters, and a config
 * change made on one instance reaches the other through pub/sub.
 */
class ClusterLimitingTest implements LimitKindsContract, ConfigHashLimitsContract, CallLimitsContract,
        DenyListContract, ConcurrencyLimitsContract, SettledCostsContract, KilledInstanceContract {

    static final int THREADS = 64;
    static final int IDENTITIES = 200;
    /** Lowered through the config hash from the annotation's 50, so that many identities stay quick. */
    static final int LIMIT = 5;
    static final int ATTEMPTS = 8;
    private static final String CHANNEL = "ratelimit:config-changed";

    private static RedisClusterProcess cluster;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;
    private static List<HttpProbe> instances;

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
        lowerAlgorithmLimits(cluster, LIMIT);
        first = FixtureApplication.start(FixtureApplication.class, cluster, "ratelimit.config.refresh-interval=1h");
        second = FixtureApplication.start(FixtureApplication.class, cluster, "ratelimit.config.refresh-interval=1h");
        instances = List.of(new HttpProbe(FixtureApplication.port(first)), new HttpProbe(FixtureApplication.port(second)));
    }

    @AfterAll
    static void stop() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
        cluster.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void everyIdentityIsAdmittedExactlyItsLimit(Algorithm algorithm) throws Exception {
        String run = "run-" + algorithm.name() + "-";
        AtomicIntegerArray admitted = new AtomicIntegerArray(IDENTITIES);
        Concurrently.forEachIndex(THREADS, IDENTITIES * ATTEMPTS, i -> {
            int identity = i % IDENTITIES;
            int status = instances.get(i % 2).status(AlgorithmController.path(algorithm) + "?usercode=" + run + identity);
            assertThat(status).as("status of request %d", i).isIn(200, 429);
            if (status == 200) {
                admitted.incrementAndGet(identity);
            }
        });

        assertThat(IntStream.range(0, IDENTITIES).map(admitted::get).boxed().collect(Collectors.toSet()))
                .as("admitted per identity").containsExactly(LIMIT);
        List<String> keys = cluster.counterKeys(run);
        assertThat(keys).hasSize(IDENTITIES);
        assertThat(keys.stream().map(key -> cluster.masterOf(cluster.slotOf(key))).collect(Collectors.toSet()))
                .as("masters holding the counters").isEqualTo(Set.of(0, 1, 2));
        assertThat(keys).allSatisfy(key -> assertThat(cluster.commands().pttl(key)).as("TTL of %s", key).isPositive());
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(first, second);
    }

    @Override
    public ChildApp startChild() {
        return ChildApp.start(cluster);
    }

    @Test
    void theLimitsOfOneRequestAreCheckedTogetherThoughTheirCountersLieOnDifferentMasters() {
        String user = IntStream.range(0, 100).mapToObj(i -> "stacker-" + i)
                .filter(candidate -> masterOfKey("LimitedController.stacked#user:USER:" + candidate)
                        != masterOfKey("LimitedController.stacked#ip:IP:127.0.0.1"))
                .findFirst().orElseThrow();
        HttpProbe http = instances.get(0);

        assertThat(IntStream.range(0, 4).map(i -> http.status("/stacked?usercode=" + user)))
                .as("2 per user, 100 per IP").containsExactly(200, 200, 429, 429);
        assertThat(cluster.commands().hget("ratelimit:counter:fixture:LimitedController.stacked#ip:IP:127.0.0.1", "count"))
                .isEqualTo("4");
    }

    @Test
    void aChangeMadeOnOneInstanceReachesTheOtherWithinOneSecond() {
        Awaitility.await("both instances subscribed").atMost(Duration.ofSeconds(10))
                .until(() -> subscribers(cluster) == 2);
        SysConfigEditor editor = first.getBean(SysConfigEditor.class);
        RuleCatalog other = second.getBean(RuleCatalog.class);
        RuleId rule = RuleId.of("fixture", "LimitedController.user");
        for (int i = 1; i <= 10; i++) {
            Long count = 1000L + i;
            editor.setRuleCount(rule, count.toString());
            Awaitility.await("change " + i + " seen by the other instance").atMost(Duration.ofSeconds(1))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> count.equals(other.current().limit(rule).map(LimitDefinition::count).orElse(null)));
        }
    }

    private static int masterOfKey(String counter) {
        return cluster.masterOf(cluster.slotOf("ratelimit:counter:fixture:" + counter));
    }

    /**
     * How many subscribers the config channel has, summed over the nodes: a cluster client subscribes on
     * one node of its choosing, and a classic {@code PUBLISH} reaches every node's subscribers.
     */
    static long subscribers(RedisClusterProcess cluster) {
        return IntStream.range(0, RedisClusterProcess.MASTERS * 2).filter(cluster::isRunning)
                .mapToLong(node -> cluster.node(node).pubsubNumsub(CHANNEL).get(CHANNEL)).sum();
    }

    /** Writes lower counts for the algorithm endpoints before the apps start; start-up keeps values that exist. */
    static void lowerAlgorithmLimits(RedisClusterProcess cluster, int limit) {
        for (Algorithm algorithm : AlgorithmController.WINDOWED) {
            cluster.commands().hset("ratelimit:sysconfig",
                    "fixture.AlgorithmController." + AlgorithmController.methodName(algorithm) + ".count",
                    Integer.toString(limit));
        }
    }
}
