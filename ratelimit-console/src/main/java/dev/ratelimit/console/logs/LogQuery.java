package dev.ratelimit.console.logs;

import dev.ratelimit.console.QueryString;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogSort;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The log page's filter form as the browser sends it: every field text, every field optional. Bad
 * times and sorts are reported, never fatal. The same query string drives the table and the export,
 * so an export holds exactly what the screen shows.
 */
public record LogQuery(String from, String to, String module, String rule, String user, String ip, String reason,
                       String sort, String dir, Integer page) {

    private static final DateTimeFormatter INPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm");

    /**
     * Parses the times ({@code yyyy-MM-ddTHH:mm} of a datetime-local input, or a date); a bad one, or a
     * range that ends before it starts, is reported in {@code problems} (as message key and arguments)
     * and left out of the filter.
     */
    LogFilter filter(List<Problem> problems) {
        LocalDateTime start = time(from, "console.logs.badFrom", problems);
        LocalDateTime end = time(to, "console.logs.badTo", problems);
        if (start != null && end != null && !start.isBefore(end)) {
            problems.add(new Problem("console.logs.fromAfterTo", INPUT.format(start).replace('T', ' '),
                    INPUT.format(end).replace('T', ' ')));
            start = null;
            end = null;
        }
        Interception.Reason why = blankToNull(reason) == null ? null : Interception.Reason.of(reason);
        if (blankToNull(reason) != null && why == null) {
            problems.add(new Problem("console.logs.badParameter", "reason", reason));
        }
        return new LogFilter(start, end, module, rule, user, ip).withReason(why);
    }

    /** The reasons the filter offers: a limit's interceptions, the deny list's. */
    public List<String> reasons() {
        return Arrays.stream(Interception.Reason.values()).map(Interception.Reason::value).toList();
    }

    /** What the From input shows: a bare date (as the overview links) becomes its midnight, which the input can show. */
    public String fromInput() {
        return input(from);
    }

    public String toInput() {
        return input(to);
    }

    LogSort logSort() {
        if (sort != null) {
            for (LogSort candidate : LogSort.values()) {
                if (candidate.name().equalsIgnoreCase(sort)) {
                    return candidate;
                }
            }
        }
        return LogSort.TIME;
    }

    /** Newest first unless {@code dir=asc}. */
    boolean descending() {
        return !"asc".equalsIgnoreCase(dir);
    }

    int pageIndex() {
        return page == null || page < 0 ? 0 : page;
    }

    /** The query string of a page of this query. */
    public String pageQuery(long pageIndex) {
        return filter().add("sort", logSort().name().toLowerCase(Locale.ROOT)).add("dir", descending() ? "desc" : "asc")
                .add("page", pageIndex).toString();
    }

    /** The query string sorting by {@code column}: toggles the direction when it is already the sort. */
    public String sortQuery(LogSort column) {
        boolean ascending = column == logSort() && descending();
        return filter().add("sort", column.name().toLowerCase(Locale.ROOT)).add("dir", ascending ? "asc" : "desc")
                .toString();
    }

    /** The filter part of the query string (no page, no sort), to build links that keep the filter. */
    private QueryString filter() {
        return QueryString.of().add("from", blankToNull(from)).add("to", blankToNull(to))
                .add("module", blankToNull(module)).add("rule", blankToNull(rule)).add("user", blankToNull(user))
                .add("ip", blankToNull(ip)).add("reason", blankToNull(reason));
    }

    private static String input(String value) {
        if (value == null || value.length() != 10) {
            return value;
        }
        try {
            return INPUT.format(LocalDate.parse(value).atStartOfDay());
        } catch (DateTimeParseException e) {
            return value;
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static LocalDateTime time(String value, String problemKey, List<Problem> problems) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return value.length() == 10 ? LocalDate.parse(value).atStartOfDay() : LocalDateTime.parse(value);
        } catch (DateTimeParseException e) {
            problems.add(new Problem(problemKey, value));
            return null;
        }
    }

    /** Something wrong with the query, to show in the operator's language. */
    public record Problem(String key, Object... arguments) {
    }
}
