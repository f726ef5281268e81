package dev.ratelimit.console.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/** A refusal of the deny list and one of a limit, written by the writer, read back apart by their reason. */
@ParameterizedClass
@EnumSource(TestDatabase.Kind.class)
class LogReportsByReasonTest {

    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

    @Parameter
    TestDatabase.Kind kind;

    private TestDatabase db;
    private BatchingInterceptionLog writer;

    @AfterEach
    void dropDatabase() throws InterruptedException {
        if (writer != null) {
            writer.destroy();
        }
        if (db != null) {
            db.close();
        }
    }

    @Test
    void theReportsFilterByReason() {
        db = TestDatabase.create(kind);
        LogDatabase database = new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS);
        writer = new BatchingInterceptionLog(database, ZONE, 100, Duration.ofSeconds(1), 10, 3,
                Duration.ofMillis(50), Duration.ofSeconds(30));
        writer.afterPropertiesSet();
        Instant at = Instant.parse("2026-12-01T08:00:00Z");
        writer.record(new Interception(at, RuleId.of("shop", "deny.ip"), null, "203.0.113.7", "POST", "/orders", Dimension.IP, 0, 0,
                false, Interception.Reason.DENY));
        writer.record(Interceptions.of(at, "shop", "Orders.create", "bob", "10.0.0.1", "/orders"));
        await().until(() -> writer.stats().written() == 2);
        LogReports reports = new LogReports(database, 10, 10, 31);

        LogEntry denied = reports.detail(LogFilter.all().withReason(Interception.Reason.DENY), LogPageRequest.newest(0, 10))
                .rows().get(0);

        assertThat(denied).usingRecursiveComparison().ignoringFields("id").isEqualTo(new LogEntry(0,
                LocalDateTime.ofInstant(at, ZONE), "shop", "deny.ip", null, "203.0.113.7", "POST", "/orders", "IP", 0, 0,
                false, 1, "deny"));
        assertThat(reports.detail(LogFilter.all().withReason(Interception.Reason.LIMIT), LogPageRequest.newest(0, 10))
                .rows()).extracting(LogEntry::rule, LogEntry::reason).containsExactly(tuple(RuleId.of("shop", "Orders.create"), "limit"));
        assertThat(reports.detail(LogFilter.all(), LogPageRequest.newest(0, 10)).total()).isEqualTo(2);
    }
}
