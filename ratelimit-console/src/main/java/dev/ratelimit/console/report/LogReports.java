package dev.ratelimit.console.report;

import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.ibatis.cursor.Cursor;
import org.apache.ibatis.session.SqlSession;

/**
 * The reports of the interception log: filtered detail pages, top users and addresses, per-rule
 * distribution, daily and hourly counts, and a streaming read for exports. Reads only; every filter value is bound, sorts come from
 * {@link LogSort}, and page sizes, top lists and date ranges are capped.
 */
public class LogReports {

    /** The longest hourly report: a range of up to two days is charted by the hour. */
    public static final int MAX_HOURS = 48;

    private final LogDatabase database;
    private final int maxPageSize;
    private final int maxTop;
    private final int maxDays;

    /**
     * @param maxPageSize largest page a request gets, whatever it asks for
     * @param maxTop      longest top-users list
     * @param maxDays     longest date range of {@link #dailyCounts}
     */
    public LogReports(LogDatabase database, int maxPageSize, int maxTop, int maxDays) {
        this.database = database;
        this.maxPageSize = maxPageSize;
        this.maxTop = maxTop;
        this.maxDays = maxDays;
        database.addMapper(LogReportMapper.class);
    }

    /** One page of matching rows, the number of them in all and the interceptions they stand for. */
    public LogPage detail(LogFilter filter, LogPageRequest request) {
        int size = Math.max(1, Math.min(request.size(), maxPageSize));
        LogCriteria criteria = LogCriteria.of(filter);
        try (SqlSession session = database.openSession(true)) {
            LogReportMapper mapper = session.getMapper(LogReportMapper.class);
            LogTotals totals = mapper.totals(criteria);
            List<LogEntry> rows = mapper.page(criteria, request.sort(), request.descending(),
                    (long) request.page() * size, size);
            return new LogPage(rows, totals.rows(), totals.hits(), request.page(), size);
        }
    }

    /** The users intercepted most often, most first (ties by user code); rows without a user are left out. */
    public List<UserCount> topUsers(LogFilter filter, int limit) {
        try (SqlSession session = database.openSession(true)) {
            return session.getMapper(LogReportMapper.class).topUsers(LogCriteria.of(filter), top(limit));
        }
    }

    /** The client addresses intercepted most often, most first (ties by address). */
    public List<IpCount> topIps(LogFilter filter, int limit) {
        try (SqlSession session = database.openSession(true)) {
            return session.getMapper(LogReportMapper.class).topIps(LogCriteria.of(filter), top(limit));
        }
    }

    private int top(int limit) {
        return Math.max(1, Math.min(limit, maxTop));
    }

    /** Interceptions per rule, most first. */
    public List<RuleCount> ruleDistribution(LogFilter filter) {
        try (SqlSession session = database.openSession(true)) {
            return session.getMapper(LogReportMapper.class).rules(LogCriteria.of(filter));
        }
    }

    /**
     * Interceptions per hour over the hours that {@code from} to {@code to} touch, one entry per hour
     * (zero for an hour without any): the chart of a range of a day or two. The hours replace the
     * filter's own time range.
     *
     * @throws IllegalArgumentException when {@code to} is not after {@code from} or the range is longer than
     *                                  {@value #MAX_HOURS} hours
     */
    public List<HourCount> hourlyCounts(LogFilter filter, LocalDateTime from, LocalDateTime to) {
        LocalDateTime first = from.truncatedTo(ChronoUnit.HOURS);
        long hours = ChronoUnit.HOURS.between(first, to.minusNanos(1).truncatedTo(ChronoUnit.HOURS)) + 1;
        if (!to.isAfter(from) || hours > MAX_HOURS) {
            throw new IllegalArgumentException("An hourly report covers 1 to " + MAX_HOURS + " hours, not " + from
                    + " to " + to);
        }
        Map<LocalDateTime, Long> counted;
        try (SqlSession session = database.openSession(true)) {
            counted = session.getMapper(LogReportMapper.class)
                    .hours(LogCriteria.of(filter.between(first, first.plusHours(hours)))).stream()
                    .collect(Collectors.toMap(bucket -> bucket.day().atTime(bucket.hour(), 0), HourBucket::count,
                            Long::sum));
        }
        List<HourCount> all = new ArrayList<>((int) hours);
        for (LocalDateTime hour = first; all.size() < hours; hour = hour.plusHours(1)) {
            all.add(new HourCount(hour, counted.getOrDefault(hour, 0L)));
        }
        return all;
    }

    /**
     * Interceptions per day from {@code first} to {@code last}, both included, one entry per day (zero
     * for a day without any). The days replace the filter's own time range.
     *
     * @throws IllegalArgumentException when {@code last} is before {@code first} or the range is longer than allowed
     */
    public List<DayCount> dailyCounts(LogFilter filter, LocalDate first, LocalDate last) {
        long days = ChronoUnit.DAYS.between(first, last) + 1;
        if (days < 1 || days > maxDays) {
            throw new IllegalArgumentException("A daily report covers 1 to " + maxDays + " days, not " + first
                    + " to " + last);
        }
        Map<LocalDate, Long> counted;
        try (SqlSession session = database.openSession(true)) {
            counted = session.getMapper(LogReportMapper.class)
                    .days(LogCriteria.of(filter.between(first.atStartOfDay(), last.plusDays(1).atStartOfDay())))
                    .stream().collect(Collectors.toMap(DayCount::day, DayCount::count));
        }
        List<DayCount> all = new ArrayList<>((int) days);
        for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
            all.add(new DayCount(day, counted.getOrDefault(day, 0L)));
        }
        return all;
    }

    /**
     * Hands every matching row to {@code each}, in order, reading them from the database in chunks, so
     * an export of any size holds only a chunk in memory.
     *
     * @param maxRows the most rows handed over; the read stops there
     * @return the number of rows handed over
     */
    public long forEach(LogFilter filter, LogSort sort, boolean descending, long maxRows,
                        Consumer<? super LogEntry> each) {
        long rows = 0;
        try (SqlSession session = database.openSession(false);
             Cursor<LogEntry> cursor = session.getMapper(LogReportMapper.class)
                     .stream(LogCriteria.of(filter), sort == null ? LogSort.TIME : sort, descending)) {
            for (LogEntry entry : cursor) {
                if (rows >= maxRows) {
                    break;
                }
                each.accept(entry);
                rows++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
