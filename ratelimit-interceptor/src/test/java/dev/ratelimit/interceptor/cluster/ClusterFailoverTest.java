package dev.ratelimit.interceptor.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A master of the cluster killed under load: every request is answered (200 or 429, never an error)
 * while its replica takes over, limiting is exact again on the promoted replica, config changes still
 * arrive, and no counter is left without a TTL.
 */
class ClusterFailoverTest {

    private static final int LOADERS = 8;
    private static final int KILLED = 0;
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(30);
    /** Node timeout, election, topology refresh and one command timeout, with room for a slow machine. */
    private static final Duration GAP_BOUND = Duration.ofSeconds(15);

    private static final RedisKeys KEYS = new RedisKeys("ratelimit");

    private static RedisClusterProcess cluster;
    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
        ClusterLimitingTest.lowerAlgorithmLimits(cluster, ClusterLimitingTest.LIMIT);
        app = FixtureApplication.start(FixtureApplication.class, cluster, "spring.data.redis.timeout=300ms",
                "ratelimit.config.refresh-interval=1h");
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        cluster.close();
    }

    @Test
    void aKilledMasterIsReplacedWithoutAnErrorAndLimitingResumesOnItsReplica() throws Exception {
        // A new identity for each request, so that every one reaches Redis: a client that each instance
        // knows to be blocked is refused without asking Redis (the near cache), dead master or not.
        List<String> loadUsers = usersOn(KILLED, Algorithm.FIXED_WINDOW, "load-", 20_000);
        AtomicInteger nextUser = new AtomicInteger();
        Queue<Answer> answers = new ConcurrentLinkedQueue<>();
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(LOADERS);
        List<Future<?>> loaders = new ArrayList<>();
        for (int loader = 0; loader < LOADERS; loader++) {
            loaders.add(pool.submit(() -> {
                while (loading.get()) {
                    String user = loadUsers.get(nextUser.getAndIncrement() % loadUsers.size());
                    HttpResponse<String> response = http.get(AlgorithmController.path(Algorithm.FIXED_WINDOW)
                            + "?usercode=" + user);
                    answers.add(new Answer(System.nanoTime(), response.statusCode(), circuit.isClosed()));
                }
                return null;
            }));
        }
        try {
            Awaitility.await("load running").atMost(Duration.ofSeconds(10)).until(() -> answers.size() >= 100);
            long killedAt = System.nanoTime();
            cluster.kill(KILLED);
            cluster.awaitFailover(KILLED, FAILOVER_BOUND);
            long promotedAt = System.nanoTime();
            int seen = answers.size();
            Awaitility.await("decisions from Redis again").atMost(FAILOVER_BOUND)
                    .until(() -> answers.stream().skip(seen).filter(Answer::fromRedis).count() >= 50);
            loading.set(false);
            for (Future<?> loader : loaders) {
                loader.get(10, TimeUnit.SECONDS);
            }

            assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).isIn(200, 429));
            List<Answer> undecided = answers.stream().filter(answer -> !answer.fromRedis()).toList();
            assertThat(undecided).as("requests answered with the circuit open while the master was gone").isNotEmpty();
            long gapMillis = (undecided.get(undecided.size() - 1).at() - killedAt) / 1_000_000;
            System.out.printf("Failover: replica promoted %d ms after the kill; circuit open (decisions in "
                            + "process) until %d ms after the kill (%d of %d requests)%n", (promotedAt - killedAt) / 1_000_000,
                    gapMillis, undecided.size(), answers.size());
            assertThat(Duration.ofMillis(gapMillis)).isLessThan(GAP_BOUND);
        } finally {
            loading.set(false);
            pool.shutdownNow();
        }

        // A promoted replica may not know the scripts (a node started empty); they must load while a node is down.
        cluster.node(KILLED + RedisClusterProcess.MASTERS).scriptFlush();
        assertExactOnPromotedReplica();
        assertThat(cluster.counterKeys("")).isNotEmpty().allSatisfy(key ->
                assertThat(cluster.commands().pttl(key)).as("TTL of %s", key).isPositive());
        assertConfigChangesArrive();

        cluster.restart(KILLED);
        assertThat(cluster.node(KILLED).role().get(0)).as("the old master rejoins as a replica").isEqualTo("slave");
    }

    /** Fresh identities whose counters the promoted replica holds are admitted exactly the limit, by every algorithm. */
    private static void assertExactOnPromotedReplica() throws Exception {
        Awaitility.await("circuit closed").atMost(FAILOVER_BOUND).until(() -> app.getBean(CircuitBreaker.class).isClosed());
        int promoted = KILLED + RedisClusterProcess.MASTERS;
        for (Algorithm algorithm : AlgorithmController.WINDOWED) {
            String user = usersOn(promoted, algorithm, "fresh-", 1).get(0);
            AtomicInteger admitted = new AtomicInteger();
            Concurrently.forEachIndex(LOADERS, ClusterLimitingTest.ATTEMPTS * 2, i -> {
                if (http.status(AlgorithmController.path(algorithm) + "?usercode=" + user) == 200) {
                    admitted.incrementAndGet();
                }
            });
            assertThat(admitted.get()).as(algorithm.name()).isEqualTo(ClusterLimitingTest.LIMIT);
            assertThat(cluster.node(promoted).exists(KEYS.counter(RuleId.of("fixture",
                    "AlgorithmController." + AlgorithmController.methodName(algorithm)), Dimension.USER, algorithm, user)))
                    .as("%s counted on the promoted replica", algorithm).isEqualTo(1L);
        }
    }

    /** The config subscription may have been on the killed node: it must be made again and work. */
    private static void assertConfigChangesArrive() {
        Awaitility.await("subscribed again").atMost(FAILOVER_BOUND)
                .until(() -> ClusterLimitingTest.subscribers(cluster) == 1);
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);
        RuleCatalog catalog = app.getBean(RuleCatalog.class);
        RuleId rule = RuleId.of("fixture", "LimitedController.user");
        for (long count = 2001; count <= 2003; count++) {
            Long expected = count;
            editor.setRuleCount(rule, expected.toString());
            Awaitility.await("change seen").atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> expected.equals(catalog.current().limit(rule).map(LimitDefinition::count).orElse(null)));
        }
    }

    /** {@code count} user codes starting with {@code prefix} whose counters of {@code algorithm}'s endpoint lie on master {@code node}. */
    private static List<String> usersOn(int node, Algorithm algorithm, String prefix, int count) {
        RuleId rule = RuleId.of("fixture", "AlgorithmController." + AlgorithmController.methodName(algorithm));
        return IntStream.range(0, 100_000).mapToObj(i -> prefix + i)
                .filter(user -> cluster.masterOf(cluster.slotOf(
                        KEYS.counter(rule, Dimension.USER, algorithm, user))) == node)
                .limit(count).toList();
    }

    /** One response; {@code fromRedis}: the circuit was closed when it came back. */
    private record Answer(long at, int status, boolean fromRedis) {
    }
}
