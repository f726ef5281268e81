package dev.ratelimit.console.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.opentest4j.TestAbortedException;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Every report over one fixed data set, on each real database: the same answers everywhere. The rows
 * go in through the writer, as in production; each row's URI is its tag ({@code /r01} ...).
 */
@ParameterizedClass
@EnumSource(TestDatabase.Kind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogReportsTest {

    /** Not UTC, so a wrong zone conversion would move rows across midnight. */
    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final int MAX_PAGE_SIZE = 5;
    private static final int MAX_TOP = 3;
    private static final int MAX_DAYS = 31;

    private static final List<Row> DATA = List.of(
            row("r01", "2026-03-01T08:00", "order", "OrderController.create#user", "alice", "10.0.0.1"),
            row("r02", "2026-03-01T09:00", "order", "OrderController.create#user", "alice", "10.0.0.1"),
            row("r03", "2026-03-01T10:00", "order", "OrderController.create#ip", null, "10.0.0.2"),
            row("r04", "2026-03-01T23:59:59.999", "search", "SearchController.find", "bob", "10.0.1.7"),
            row("r05", "2026-03-02T00:00", "search", "SearchController.find", "bob", "10.0.1.7"),
            row("r06", "2026-03-02T09:00", "order", "OrderController.create#user", "carol", "10.0.0.3"),
            row("r07", "2026-03-02T09:30", "order", "OrderController.create#user", "alice", "10.0.0.1"),
            row("r08", "2026-03-02T10:00", "order", "OrderController.pay", "alice", "10.0.0.1"),
            row("r09", "2026-03-02T11:00", "order", "OrderController.pay", "carol", "10.0.0.3"),
            row("r10", "2026-03-02T12:00", "search", "SearchController.find", "bob", "10.0.1.8"),
            row("r11", "2026-03-04T12:00", "search", "/open/**", "dave", "192.168.0.1"),
            row("r12", "2026-03-04T12:01", "search", "SearchController.find", "o'brien", "192.168.0.2"),
            row("r13", "2026-03-04T12:02", "search", "SearchController.find", "50%off", "192.168.0.3"),
            row("r14", "2026-03-04T12:03", "search", "SearchController.find", "500x", "192.168.0.4"),
            row("r15", "2026-03-04T12:04", "search", "SearchController.find", "a_b", "192.168.0.5"),
            row("r16", "2026-03-04T12:05", "search", "SearchController.find", "axb", "192.168.0.6"),
            row("r17", "2026-03-04T12:06", "search", "x' OR '1'='1", "a!b", "192.168.0.7"),
            row("r18", "2026-03-05T00:00", "admin", "AdminController.purge", null, null));

    @Parameter
    TestDatabase.Kind kind;

    private TestDatabase db;
    private BatchingInterceptionLog writer;
    private LogReports reports;
    private TestAbortedException unavailable;

    @BeforeParameterizedClassInvocation
    void load() {
        unavailable = null;
        try {
            db = TestDatabase.create(kind);
        } catch (TestAbortedException e) {
            unavailable = e; // reported on every test, so the skips show in the counts
            return;
        }
        LogDatabase database = new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS);
        writer = new BatchingInterceptionLog(database, ZONE, 100, Duration.ofSeconds(1), 7, 3, Duration.ofMillis(50), Duration.ofSeconds(10));
        reports = new LogReports(database, MAX_PAGE_SIZE, MAX_TOP, MAX_DAYS);
        writer.afterPropertiesSet();
        // In the order of the list, which the writer keeps, so that the ids follow it (the tie-breaker of every sort).
        DATA.forEach(row -> writer.record(row.interception()));
        await().until(() -> writer.stats().written() == DATA.size());
    }

    @BeforeEach
    void skipWithoutTheDatabase() {
        if (unavailable != null) {
            throw unavailable;
        }
    }

    @AfterParameterizedClassInvocation
    void drop() throws InterruptedException {
        if (db != null) {
            writer.destroy();
            db.close();
            db = null;
        }
    }

    @Test
    void aPageIsTheNewestRowsWithTheTotalOfAllPages() {
        LogPage first = reports.detail(LogFilter.all(), LogPageRequest.newest(0, 5));
        assertThat(tags(first.rows())).containsExactly("r18", "r17", "r16", "r15", "r14");
        assertThat(first.total()).isEqualTo(18);
        assertThat(first.pages()).isEqualTo(4);

        LogPage last = reports.detail(LogFilter.all(), LogPageRequest.newest(3, 5));
        assertThat(tags(last.rows())).containsExactly("r03", "r02", "r01");
        assertThat(reports.detail(LogFilter.all(), LogPageRequest.newest(4, 5)).rows()).isEmpty();
    }

    @Test
    void pageSizesAreCappedAndNonsenseIsReadSafely() {
        LogPage huge = reports.detail(LogFilter.all(), LogPageRequest.newest(0, 1_000_000));
        assertThat(huge.size()).isEqualTo(MAX_PAGE_SIZE);
        assertThat(huge.rows()).hasSize(MAX_PAGE_SIZE);

        LogPage negative = reports.detail(LogFilter.all(), new LogPageRequest(-3, -1, null, false));
        assertThat(negative.page()).isZero();
        assertThat(tags(negative.rows())).containsExactly("r18");
    }

    @Test
    void everyColumnComesBackAsRecorded() {
        LogEntry r04 = onlyRow(new LogFilter(null, null, null, null, "bob", "10.0.1.7")
                .between(at("2026-03-01T23:00"), at("2026-03-02T00:00")));
        assertThat(r04).usingRecursiveComparison().ignoringFields("id").isEqualTo(new LogEntry(0,
                at("2026-03-01T23:59:59.999"), "search", "SearchController.find", "bob", "10.0.1.7", "GET", "/r04",
                "USER", 10, 60, false, 1, "limit"));

        LogEntry r18 = onlyRow(new LogFilter(null, null, "admin", null, null, null));
        assertThat(r18.user()).isNull();
        assertThat(r18.ip()).isNull();
        assertThat(r18.shadow()).isTrue();
        assertThat(r18.dimension()).isEqualTo("METHOD");
    }

    @Test
    void theTimeRangeIncludesItsStartAndExcludesItsEnd() {
        assertThat(tags(LogFilter.all().between(at("2026-03-01T23:59:59.999"), at("2026-03-02T00:00"))))
                .containsExactly("r04");
        assertThat(tags(LogFilter.all().between(at("2026-03-02T00:00"), at("2026-03-02T09:00"))))
                .containsExactly("r05");
        assertThat(tags(LogFilter.all().between(at("2026-03-04T00:00"), null))).hasSize(8);
    }

    @Test
    void moduleMatchesExactlyAndRuleUserAndIpMatchAsPrefixes() {
        assertThat(tags(filter("order", null, null, null)))
                .containsExactlyInAnyOrder("r01", "r02", "r03", "r06", "r07", "r08", "r09");
        assertThat(tags(filter("ord", null, null, null))).isEmpty();
        assertThat(tags(filter(null, "OrderController.create", null, null)))
                .containsExactlyInAnyOrder("r01", "r02", "r03", "r06", "r07");
        assertThat(tags(filter(null, null, "al", null))).containsExactlyInAnyOrder("r01", "r02", "r07", "r08");
        assertThat(tags(filter(null, null, "alice", null))).containsExactlyInAnyOrder("r01", "r02", "r07", "r08");
        assertThat(tags(filter(null, null, "Alice", null))).isEmpty();
        assertThat(tags(filter(null, null, null, "10.0.0."))).hasSize(7);
        assertThat(tags(filter(null, null, null, "10.0.0.1"))).containsExactlyInAnyOrder("r01", "r02", "r07", "r08");
        assertThat(tags(new LogFilter(at("2026-03-02T00:00"), null, "search", null, "bob", " ")))
                .containsExactlyInAnyOrder("r05", "r10");
    }

    @Test
    void quotesWildcardsAndSqlInFiltersAreMatchedAsPlainText() {
        assertThat(tags(filter(null, null, "o'brien", null))).containsExactly("r12");
        assertThat(tags(filter(null, null, "50%", null))).containsExactly("r13");
        assertThat(tags(filter(null, null, "a_", null))).containsExactly("r15");
        assertThat(tags(filter(null, null, "a!", null))).containsExactly("r17");
        assertThat(tags(filter(null, null, "%", null))).isEmpty();
        assertThat(tags(filter(null, null, "_", null))).isEmpty();
        assertThat(tags(filter(null, "x' OR '1'='1", null, null))).containsExactly("r17");
        assertThat(tags(filter("order' OR '1'='1", null, null, null))).isEmpty();
        assertThat(tags(filter(null, null, null, "' OR 1=1 --"))).isEmpty();
        assertThat(tags(filter("x'; DROP TABLE biz_sys_ratelimit_log; --", null, null, null))).isEmpty();
        assertThat(reports.topUsers(filter(null, null, "'; DELETE FROM biz_sys_ratelimit_log; --", null), 3)).isEmpty();
        assertThat(db.rowCount()).isEqualTo(DATA.size());
    }

    @Test
    void everySortOrdersTheSameWayOnEveryDatabaseWithRowsLackingAValueLast() {
        for (LogSort sort : LogSort.values()) {
            for (boolean descending : new boolean[] {false, true}) {
                List<String> streamed = new ArrayList<>();
                long count = reports.forEach(LogFilter.all(), sort, descending, Long.MAX_VALUE, entry -> streamed.add(entry.uri()));
                assertThat(count).isEqualTo(DATA.size());
                assertThat(streamed).as("%s %s", sort, descending ? "descending" : "ascending")
                        .containsExactlyElementsOf(expectedOrder(sort, descending));

                List<String> paged = new ArrayList<>();
                for (int page = 0; page < 4; page++) {
                    reports.detail(LogFilter.all(), new LogPageRequest(page, 5, sort, descending)).rows()
                            .forEach(entry -> paged.add(entry.uri()));
                }
                assertThat(paged).as("pages of %s %s", sort, descending).isEqualTo(streamed);
            }
        }
    }

    @Test
    void streamingHandsOverOnlyTheFilteredRows() {
        List<String> streamed = new ArrayList<>();
        long count = reports.forEach(filter(null, null, "bob", null), LogSort.TIME, false, Long.MAX_VALUE,
                entry -> streamed.add(entry.uri()));
        assertThat(count).isEqualTo(3);
        assertThat(streamed).containsExactly("/r04", "/r05", "/r10");
    }

    @Test
    void streamingStopsAtTheRowCap() {
        List<String> streamed = new ArrayList<>();
        long count = reports.forEach(filter(null, null, "bob", null), LogSort.TIME, false, 2,
                entry -> streamed.add(entry.uri()));
        assertThat(count).isEqualTo(2);
        assertThat(streamed).containsExactly("/r04", "/r05");
    }

    @Test
    void topUsersAreTheMostInterceptedFirstAndTheListIsCapped() {
        assertThat(reports.topUsers(LogFilter.all(), 1_000)).containsExactly(
                new UserCount("alice", 4), new UserCount("bob", 3), new UserCount("carol", 2));
        assertThat(reports.topUsers(filter("order", null, null, null), 2)).containsExactly(
                new UserCount("alice", 4), new UserCount("carol", 2));
        assertThat(reports.topUsers(filter(null, null, null, "10.0.1."), 3)).containsExactly(new UserCount("bob", 3));
    }

    @Test
    void aWholeRuleMatchesOnlyThatRule() {
        assertThat(tags(LogFilter.ofRule(RuleId.of("order", "OrderController.create")))).isEmpty();
        assertThat(tags(LogFilter.ofRule(RuleId.of("order", "OrderController.create#user"))))
                .containsExactlyInAnyOrder("r01", "r02", "r06", "r07");
        assertThat(tags(LogFilter.ofRule(RuleId.of("search", "/open/**")).between(at("2026-03-04T00:00"), null)))
                .containsExactly("r11");
    }

    @Test
    void topIpsAreTheMostInterceptedAddressesFirstAndTheListIsCapped() {
        assertThat(reports.topIps(LogFilter.all(), 1_000)).containsExactly(
                new IpCount("10.0.0.1", 4), new IpCount("10.0.0.3", 2), new IpCount("10.0.1.7", 2));
        assertThat(reports.topIps(LogFilter.ofRule(RuleId.of("order", "OrderController.create#user")), 3)).containsExactly(
                new IpCount("10.0.0.1", 3), new IpCount("10.0.0.3", 1));
    }

    @Test
    void ruleDistributionCountsPerModuleAndRule() {
        assertThat(reports.ruleDistribution(LogFilter.all())).containsExactly(
                new RuleCount("search", "SearchController.find", 8),
                new RuleCount("order", "OrderController.create#user", 4),
                new RuleCount("order", "OrderController.pay", 2),
                new RuleCount("admin", "AdminController.purge", 1),
                new RuleCount("order", "OrderController.create#ip", 1),
                new RuleCount("search", "/open/**", 1),
                new RuleCount("search", "x' OR '1'='1", 1));
        assertThat(reports.ruleDistribution(LogFilter.all().between(at("2026-03-02T00:00"), at("2026-03-03T00:00"))))
                .containsExactly(
                        new RuleCount("order", "OrderController.create#user", 2),
                        new RuleCount("order", "OrderController.pay", 2),
                        new RuleCount("search", "SearchController.find", 2));
    }

    @Test
    void hourlyCountsHaveOneEntryPerHourTouchedIncludingEmptyHoursAndAreBounded() {
        List<HourCount> hours = reports.hourlyCounts(LogFilter.all(), at("2026-03-01T07:30"), at("2026-03-02T00:30"));

        assertThat(hours).hasSize(18);
        assertThat(hours.get(0).hour()).isEqualTo(at("2026-03-01T07:00"));
        assertThat(hours).filteredOn(hour -> hour.count() > 0).containsExactly(
                new HourCount(at("2026-03-01T08:00"), 1), new HourCount(at("2026-03-01T09:00"), 1),
                new HourCount(at("2026-03-01T10:00"), 1), new HourCount(at("2026-03-01T23:00"), 1),
                new HourCount(at("2026-03-02T00:00"), 1));
        assertThat(reports.hourlyCounts(filter("search", null, null, null), at("2026-03-04T12:00"),
                at("2026-03-04T13:00"))).containsExactly(new HourCount(at("2026-03-04T12:00"), 7));
        assertThatThrownBy(() -> reports.hourlyCounts(LogFilter.all(), at("2026-03-01T00:00"), at("2026-03-03T00:01")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reports.hourlyCounts(LogFilter.all(), at("2026-03-01T00:00"), at("2026-03-01T00:00")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dailyCountsHaveOneEntryPerDayOfTheLogsZoneIncludingEmptyDays() {
        assertThat(reports.dailyCounts(LogFilter.all(), LocalDate.parse("2026-02-28"), LocalDate.parse("2026-03-06")))
                .extracting(DayCount::count).containsExactly(0L, 4L, 6L, 0L, 7L, 1L, 0L);
        assertThat(reports.dailyCounts(filter("order", null, null, null), LocalDate.parse("2026-03-01"),
                LocalDate.parse("2026-03-02"))).containsExactly(
                new DayCount(LocalDate.parse("2026-03-01"), 3), new DayCount(LocalDate.parse("2026-03-02"), 4));
        // the days replace the filter's own time range
        assertThat(reports.dailyCounts(LogFilter.all().between(at("2026-03-04T12:03"), null),
                LocalDate.parse("2026-03-01"), LocalDate.parse("2026-03-01")))
                .containsExactly(new DayCount(LocalDate.parse("2026-03-01"), 4));
    }

    @Test
    void aDailyRangeBackwardsOrLongerThanAllowedIsRefused() {
        assertThatThrownBy(() -> reports.dailyCounts(LogFilter.all(), LocalDate.parse("2026-03-02"),
                LocalDate.parse("2026-03-01"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reports.dailyCounts(LogFilter.all(), LocalDate.parse("2026-01-01"),
                LocalDate.parse("2026-12-31"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("31 days");
    }

    private List<String> expectedOrder(LogSort sort, boolean descending) {
        Function<Row, String> key = switch (sort) {
            case TIME -> row -> row.at.toString();
            case MODULE -> Row::module;
            case RULE -> Row::rule;
            case USER -> Row::user;
            case IP -> Row::ip;
            case URI -> row -> "/" + row.tag;
        };
        Comparator<String> values = descending ? Comparator.<String>reverseOrder() : Comparator.<String>naturalOrder();
        Comparator<Integer> positions = descending ? Comparator.<Integer>reverseOrder() : Comparator.<Integer>naturalOrder();
        Comparator<Row> order = Comparator.comparing((Row row) -> key.apply(row) == null)
                .thenComparing(key, Comparator.nullsLast(values))
                .thenComparing(DATA::indexOf, positions);
        return DATA.stream().sorted(order).map(row -> "/" + row.tag).toList();
    }

    private LogEntry onlyRow(LogFilter filter) {
        List<LogEntry> rows = reports.detail(filter, LogPageRequest.newest(0, 5)).rows();
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    private List<String> tags(LogFilter filter) {
        LogPage page = reports.detail(filter, LogPageRequest.newest(0, MAX_PAGE_SIZE));
        List<String> tags = new ArrayList<>();
        reports.forEach(filter, LogSort.TIME, true, Long.MAX_VALUE, entry -> tags.add(entry.uri().substring(1)));
        assertThat(page.total()).isEqualTo(tags.size());
        return tags;
    }

    private static List<String> tags(List<LogEntry> rows) {
        return rows.stream().map(entry -> entry.uri().substring(1)).toList();
    }

    private static LogFilter filter(String module, String rule, String user, String ip) {
        return new LogFilter(null, null, module, rule, user, ip);
    }

    private static LocalDateTime at(String time) {
        return LocalDateTime.parse(time);
    }

    private static Row row(String tag, String at, String module, String rule, String user, String ip) {
        return new Row(tag, LocalDateTime.parse(at), module, rule, user, ip);
    }

    private record Row(String tag, LocalDateTime at, String module, String rule, String user, String ip) {

        Interception interception() {
            boolean admin = "admin".equals(module);
            return new Interception(at.atZone(ZONE).toInstant(), RuleId.of(module, rule), user, ip, "GET", "/" + tag,
                    admin ? Dimension.METHOD : Dimension.USER, 10, 60, admin);
        }
    }
}
