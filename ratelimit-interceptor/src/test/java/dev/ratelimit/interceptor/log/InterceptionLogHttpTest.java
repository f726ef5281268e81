package dev.ratelimit.interceptor.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.internal.log.writer.LogWriterStats;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.LogTable;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The log behind the real interceptor, over HTTP: every rejection becomes a row, and no database costs a request. */
class InterceptionLogHttpTest {

    private static final int LIMIT = 50; // LimitedController.user: 50 per 60 s per user

    private RedisServerProcess redis;
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    @BeforeEach
    void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterEach
    void stop() {
        apps.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }

    @Test
    void everyRejectionFrom32ConcurrentClientsBecomesOneRow() throws Exception {
        ConfigurableApplicationContext app = start(); // Boot's embedded H2: the table is created on first use
        int[] statuses = hammer(app, "/user?usercode=burst", 32, 20);
        int rejected = statuses[1];
        assertThat(statuses[0]).isEqualTo(LIMIT);
        assertThat(rejected).isEqualTo(32 * 20 - LIMIT);

        BatchingInterceptionLog writer = app.getBean(BatchingInterceptionLog.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> writer.stats().written() == rejected);
        assertThat(writer.stats().dropped()).isZero();
        assertThat(writer.stats().queued()).isZero();

        LogTable log = LogTable.of(app);
        String burst = "module = 'fixture' AND usercode = 'burst'";
        assertThat(log.hits(burst)).isEqualTo(rejected);
        assertThat(log.rows(burst)).as("identical interceptions coalesced").isEqualTo(writer.stats().rows())
                .isLessThan(rejected);
        assertThat(log.all(burst).get(0)).containsEntry("rule", "LimitedController.user")
                .containsEntry("ip", "127.0.0.1").containsEntry("http_method", "GET").containsEntry("uri", "/user")
                .containsEntry("dimension", Dimension.USER.name()).containsEntry("limit_count", (long) LIMIT)
                .containsEntry("interval_sec", 60L).containsEntry("shadow", false).containsEntry("reason", "limit");
    }

    @Test
    void theLogSwitchInTheConfigHashStopsAndStartsTheRows() throws Exception {
        redis.commands().hset("ratelimit:sysconfig", "log.check", "0");
        ConfigurableApplicationContext app = start();
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        for (int i = 0; i < 3; i++) {
            http.status("/short?usercode=quiet");
        }

        redis.commands().hset("ratelimit:sysconfig", "log.check", "1");
        app.getBean(RuleSnapshotHolder.class).refresh();
        assertThat(http.status("/short?usercode=loud")).isEqualTo(200);
        assertThat(http.status("/short?usercode=loud")).isEqualTo(200);
        assertThat(http.status("/short?usercode=loud")).isEqualTo(429);

        BatchingInterceptionLog writer = app.getBean(BatchingInterceptionLog.class);
        await().until(() -> writer.stats().written() == 1);
        // rows are written in order, so the rejection of "quiet" would be in by now
        assertThat(LogTable.of(app).all("1 = 1")).extracting(row -> row.get("usercode")).containsExactly("loud");
    }

    @Test
    void anUnreachableDatabaseChangesNoAnswerAndItsRowsAreCountedAsDropped() throws Exception {
        ConfigurableApplicationContext app = start(
                "spring.datasource.url=jdbc:postgresql://127.0.0.1:" + RedisServerProcess.freePort() + "/test",
                "spring.datasource.username=postgres",
                "spring.datasource.hikari.connection-timeout=250",
                "ratelimit.log.writer.attempts=1");

        int[] statuses = hammer(app, "/user?usercode=nodb", 8, 10);
        assertThat(statuses).containsExactly(LIMIT, 80 - LIMIT);

        BatchingInterceptionLog writer = app.getBean(BatchingInterceptionLog.class);
        await().atMost(Duration.ofSeconds(60)).until(() -> writer.stats().dropped() == 80 - LIMIT);
        assertThat(writer.stats().written()).isZero();
    }

    @Test
    void anAppWithoutADataSourceStartsAndLimitsWithTheLogOff() {
        ConfigurableApplicationContext app = start(
                "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
        assertThat(app.getBeanNamesForType(LogDatabase.class)).isEmpty();
        assertThat(app.getBean(InterceptionLog.class)).isSameAs(InterceptionLog.DISCARD);

        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        assertThat(http.status("/short?usercode=plain")).isEqualTo(200);
        assertThat(http.status("/short?usercode=plain")).isEqualTo(200);
        assertThat(http.status("/short?usercode=plain")).isEqualTo(429);
    }

    private ConfigurableApplicationContext start(String... properties) {
        ConfigurableApplicationContext app = FixtureApplication.start(redis.port(), properties);
        apps.add(app);
        return app;
    }

    /** {@code threads} clients sending {@code each} requests at once; returns the counts of 200 and 429. */
    private static int[] hammer(ConfigurableApplicationContext app, String path, int threads, int each)
            throws Exception {
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<int[]>> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            clients.add(pool.submit(() -> {
                go.await();
                int[] counts = new int[2];
                for (int i = 0; i < each; i++) {
                    int status = http.status(path);
                    if (status != 200 && status != 429) {
                        throw new AssertionError("unexpected status " + status);
                    }
                    counts[status == 200 ? 0 : 1]++;
                }
                return counts;
            }));
        }
        go.countDown();
        int[] total = new int[2];
        for (Future<int[]> client : clients) {
            int[] counts = client.get();
            total[0] += counts[0];
            total[1] += counts[1];
        }
        pool.shutdown();
        return total;
    }
}
