package dev.ratelimit.interceptor.internal.log.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/** The writer against each real database: every row lands, long values are cut, shutdown flushes, old rows go. */
@ParameterizedClass
@EnumSource(TestDatabase.Kind.class)
class BatchingInterceptionLogTest {

    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

    @Parameter
    TestDatabase.Kind kind;

    private TestDatabase db;
    private LogDatabase database;
    private final List<BatchingInterceptionLog> writers = new ArrayList<>();

    @BeforeEach
    void createDatabase() {
        db = TestDatabase.create(kind);
        database = new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS);
    }

    @AfterEach
    void dropDatabase() throws InterruptedException {
        for (BatchingInterceptionLog writer : writers) {
            writer.destroy();
        }
        if (db != null) {
            db.close();
        }
    }

    @Test
    void aBurstOfTenThousandRejectionsFrom32ThreadsAllLand() throws Exception {
        BatchingInterceptionLog writer = started(10_000, 500);
        int total = 10_000;
        Concurrently.forEachIndex(32, total, i -> writer.record(Interceptions.numbered(i)));

        await().atMost(Duration.ofSeconds(60)).until(() -> writer.stats().written() == total);
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(total, total, 0, 0));
        assertThat(db.rowCount()).isEqualTo(total);
        assertThat(db.queryLong("SELECT COUNT(DISTINCT uri) FROM biz_sys_ratelimit_log")).isEqualTo(total);
    }

    @Test
    void valuesLongerThanTheirColumnsAreCutInsteadOfFailingTheBatch() {
        BatchingInterceptionLog writer = started(100, 10);
        String longUser = "u".repeat(LogRow.USER_LENGTH - 1) + "\uD83D\uDE00"; // an emoji across the limit
        writer.record(Interceptions.of(Instant.now(), "m".repeat(500), "r".repeat(1000), longUser, "9".repeat(300),
                "/" + "a".repeat(100_000)));
        writer.record(Interceptions.of(Instant.now(), "shop", "Ok.ok", "bob", "10.0.0.1", "/ok"));

        await().until(() -> writer.stats().written() == 2);
        assertThat(db.queryLong("SELECT MAX(LENGTH(uri)) FROM biz_sys_ratelimit_log")).isEqualTo(LogRow.URI_LENGTH);
        assertThat(db.queryLong("SELECT MAX(LENGTH(rule)) FROM biz_sys_ratelimit_log")).isEqualTo(LogRow.RULE_LENGTH);
        assertThat(db.queryLong("SELECT MAX(LENGTH(module)) FROM biz_sys_ratelimit_log")).isEqualTo(LogRow.MODULE_LENGTH);
        assertThat(db.queryLong("SELECT MAX(LENGTH(ip)) FROM biz_sys_ratelimit_log")).isEqualTo(LogRow.IP_LENGTH);
        assertThat(db.queryLong("SELECT MAX(LENGTH(usercode)) FROM biz_sys_ratelimit_log"))
                .isEqualTo(LogRow.USER_LENGTH - 1);
    }

    /** A refusal of the deny list is a row of its own reason (the console's reports filter by it). */
    @Test
    void aDenyListRefusalIsARowWithReasonDeny() {
        BatchingInterceptionLog writer = started(100, 10);
        Instant at = Instant.parse("2026-12-01T08:00:00Z");
        writer.record(new Interception(at, RuleId.of("shop", "deny.ip"), null, "203.0.113.7", "POST", "/orders", Dimension.IP, 0, 0,
                false, Interception.Reason.DENY));
        writer.record(Interceptions.of(at, "shop", "Orders.create", "bob", "10.0.0.1", "/orders"));
        await().until(() -> writer.stats().written() == 2);

        assertThat(db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE reason = 'deny' AND rule = 'deny.ip'"
                + " AND module = 'shop' AND usercode IS NULL AND ip = '203.0.113.7' AND dimension = 'IP'"
                + " AND limit_count = 0 AND interval_sec = 0 AND hits = 1")).isEqualTo(1);
        assertThat(db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE reason = 'limit'"
                + " AND rule = 'Orders.create' AND usercode = 'bob'")).isEqualTo(1);
        assertThat(db.rowCount()).isEqualTo(2);
    }

    @Test
    void shutdownWritesOutWhatIsStillQueued() throws InterruptedException {
        BatchingInterceptionLog writer = started(5_000, 100);
        for (int i = 0; i < 5_000; i++) {
            writer.record(Interceptions.numbered(i));
        }
        writer.destroy();

        assertThat(writer.stats()).isEqualTo(new LogWriterStats(5_000, 5_000, 0, 0));
        assertThat(db.rowCount()).isEqualTo(5_000);
    }

    @Test
    void retentionDeletesRowsOlderThanTheLimitInBatches() {
        BatchingInterceptionLog writer = started(100, 7);
        Instant now = Instant.now();
        for (int i = 0; i < 25; i++) {
            writer.record(Interceptions.of(now.minus(91 + i, ChronoUnit.DAYS), "shop", "Old.row", "u" + i, "ip", "/old"));
        }
        for (int i = 0; i < 5; i++) {
            writer.record(Interceptions.of(now.minus(89, ChronoUnit.DAYS), "shop", "Recent.row", "u" + i, "ip", "/new"));
        }
        await().until(() -> writer.stats().written() == 30);

        Clock clock = Clock.system(ZONE);
        assertThat(new LogRetention(database, 0, 10, Duration.ofDays(1), clock).purge()).isZero();
        LogRetention retention = new LogRetention(database, 90, 10, Duration.ofDays(1), clock);
        assertThat(retention.purge()).isEqualTo(25);
        assertThat(retention.purge()).isZero();
        assertThat(db.rowCount()).isEqualTo(5);
        assertThat(db.queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log WHERE rule = 'Recent.row'")).isEqualTo(5);
    }

    @Test
    void theSchemaScriptCanRunAgainOnAnExistingTable() {
        BatchingInterceptionLog first = started(10, 10);
        first.record(Interceptions.numbered(1));
        await().until(() -> first.stats().written() == 1);

        LogDatabase again = new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS);
        BatchingInterceptionLog second = started(again, 10, 10);
        second.record(Interceptions.numbered(2));
        await().until(() -> second.stats().written() == 1);
        assertThat(db.rowCount()).isEqualTo(2);
    }

    private BatchingInterceptionLog started(int capacity, int batchSize) {
        return started(database, capacity, batchSize);
    }

    private BatchingInterceptionLog started(LogDatabase on, int capacity, int batchSize) {
        BatchingInterceptionLog writer = new BatchingInterceptionLog(on, ZONE, capacity, Duration.ofSeconds(1), batchSize, 3,
                Duration.ofMillis(50), Duration.ofSeconds(30));
        writer.afterPropertiesSet();
        writers.add(writer);
        return writer;
    }

}
