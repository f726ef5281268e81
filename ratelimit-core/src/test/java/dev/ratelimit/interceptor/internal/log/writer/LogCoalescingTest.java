package dev.ratelimit.interceptor.internal.log.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * A flood of one attacker's identical rejections, with the shipped writer settings, on each real
 * database: one row per coalescing window, every rejection counted in {@code hits}, none dropped; the
 * other clients' rejections meanwhile keep rows of their own. And a table from before {@code hits}.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Kind.class)
class LogCoalescingTest {

    private static final int THREADS = 16;
    private static final Duration FLOOD = Duration.ofMillis(2_500);
    private static final Duration WINDOW = Duration.ofSeconds(1);
    /** Each thread also records a rejection of another client, each a different one, this often. */
    private static final long OTHERS_EVERY_NANOS = Duration.ofMillis(10).toNanos();

    @Parameter
    TestDatabase.Kind kind;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void aFloodOfOneAttackerIsOneRowPerWindowAndEveryRejectionIsCounted() throws Exception {
        TestDatabase db = closing(TestDatabase.create(kind));
        BatchingInterceptionLog writer = started(new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS));
        Interception attack = Interceptions.of(Instant.now(), "shop", "LoginController.login", "mallory",
                "203.0.113.66", "/login");

        long start = System.nanoTime();
        long[] perThread = flood(writer, attack);
        double seconds = (System.nanoTime() - start) / 1e9;
        long attacks = perThread[0];
        long others = perThread[1];

        await().atMost(Duration.ofSeconds(30))
                .until(() -> writer.stats().written() + writer.stats().dropped() == attacks + others);
        assertThat(writer.stats().dropped()).isZero();
        assertThat(db.queryLong("SELECT SUM(hits) FROM biz_sys_ratelimit_log")).isEqualTo(attacks + others);
        long attackRows = db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE usercode = 'mallory'");
        assertThat(db.queryLong("SELECT SUM(hits) FROM biz_sys_ratelimit_log WHERE usercode = 'mallory'"))
                .isEqualTo(attacks);
        assertThat(attackRows).isBetween(1L, (long) Math.ceil(seconds / WINDOW.toSeconds()) + 1);
        assertThat(db.rowCount()).isEqualTo(attackRows + others);
        System.out.printf("%s: %,d rejections of one attacker in %.1f s (%,.0f/s) and %,d of others: %,d rows "
                        + "(%d of the attacker), %,d hits recorded, %d dropped%n", kind, attacks, seconds,
                attacks / seconds, others, db.rowCount(), attackRows,
                db.queryLong("SELECT SUM(hits) FROM biz_sys_ratelimit_log"), writer.stats().dropped());
    }

    @Test
    void aTableFromBeforeHitsGetsTheColumnOnFirstUseAndItsRowsCountOnceEach() throws Exception {
        TestDatabase db = oneRowWithout("hits");

        BatchingInterceptionLog after = started(new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS));
        after.record(Interceptions.numbered(2));
        await().until(() -> after.stats().written() == 1);

        assertThat(db.queryLong("SELECT SUM(hits) FROM biz_sys_ratelimit_log")).isEqualTo(2);
    }

    @Test
    void aTableFromBeforeReasonGetsTheColumnOnFirstUseAndItsRowsAreALimits() throws Exception {
        TestDatabase db = oneRowWithout("reason");

        BatchingInterceptionLog after = started(new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS));
        after.record(new Interception(Instant.now(), RuleId.of("bench", "deny.user"), "user-2", "10.1.2.1", "GET", "/bench/2",
                Dimension.USER, 0, 0, false, Interception.Reason.DENY));
        await().until(() -> after.stats().written() == 1);

        assertThat(db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE reason = 'limit'")).isEqualTo(1);
        assertThat(db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE reason = 'deny'")).isEqualTo(1);
    }

    @Test
    void withoutLeaveToChangeTheSchemaAnOldTableIsLeftAloneAndTheRowsAreCountedAsDropped() throws Exception {
        TestDatabase db = oneRowWithout("hits");

        BatchingInterceptionLog after = started(new LogDatabase(db.dataSource(), DatabaseInitializationMode.NEVER));
        after.record(Interceptions.numbered(2));

        await().atMost(Duration.ofSeconds(30)).until(() -> after.stats().dropped() == 1);
        assertThat(db.rowCount()).isEqualTo(1);
    }

    /** @return rejections recorded: of the attacker, of the others */
    private static long[] flood(BatchingInterceptionLog writer, Interception attack) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(threads.submit(() -> {
                    go.await();
                    long now = System.nanoTime();
                    long deadline = now + FLOOD.toNanos();
                    long nextOther = now;
                    long attacks = 0;
                    long others = 0;
                    while (now - deadline < 0) {
                        writer.record(attack);
                        attacks++;
                        if (now - nextOther >= 0) {
                            writer.record(Interceptions.numbered((int) (thread * 1_000_000 + others++)));
                            nextOther += OTHERS_EVERY_NANOS;
                        }
                        now = System.nanoTime();
                    }
                    return new long[] {attacks, others};
                }));
            }
            go.countDown();
            long[] total = new long[2];
            for (Future<long[]> result : results) {
                long[] counted = result.get(60, TimeUnit.SECONDS);
                total[0] += counted[0];
                total[1] += counted[1];
            }
            return total;
        } finally {
            threads.shutdownNow();
        }
    }

    /** A writer with the shipped settings (those of {@code ratelimit.log.writer.*}). */
    private BatchingInterceptionLog started(LogDatabase database) {
        BatchingInterceptionLog writer = new BatchingInterceptionLog(database, ZoneOffset.UTC, 10_000, WINDOW, 500, 3,
                Duration.ofSeconds(1), Duration.ofSeconds(5));
        writer.afterPropertiesSet();
        resources.add(writer::destroy);
        return writer;
    }

    /** A database with one row written, then a column dropped: a table of an earlier version. */
    private TestDatabase oneRowWithout(String column) {
        TestDatabase db = closing(TestDatabase.create(kind));
        BatchingInterceptionLog before = started(new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS));
        before.record(Interceptions.numbered(1));
        await().until(() -> before.stats().written() == 1);
        db.execute("ALTER TABLE biz_sys_ratelimit_log DROP COLUMN " + column);
        return db;
    }

    private <T extends AutoCloseable> T closing(T resource) {
        resources.add(resource);
        return resource;
    }
}
