package dev.ratelimit.console.logs;

import dev.ratelimit.interceptor.log.report.LogFilter;
import dev.ratelimit.interceptor.log.report.LogSort;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The log page's filter form as the browser sends it: every field text, every field optional. Bad
 * times and sorts are reported, never fatal. The same query string drives the table and the export,
 * so an export holds exactly what the screen shows.
 */
public record LogQuery(String from, String to, String module, String rule, String user, String ip, String sort,
                       String dir, Integer page) {

    /** Parses the times ({@code yyyy-MM-ddTHH:mm} of a datetime-local input, or a date); a bad one is listed in {@code problems}. */
    LogFilter filter(List<String> problems) {
        return new LogFilter(time(from, "from", problems), time(to, "to", problems), module, rule, user, ip);
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

    /** The filter part of the query string (no page, no sort), to build links that keep the filter. */
    public String filterQuery() {
        UriComponentsBuilder builder = UriComponentsBuilder.newInstance();
        add(builder, "from", from);
        add(builder, "to", to);
        add(builder, "module", module);
        add(builder, "rule", rule);
        add(builder, "user", user);
        add(builder, "ip", ip);
        String query = builder.build().encode().getQuery();
        return query == null ? "" : query;
    }

    /** The query string of a page of this query. */
    public String pageQuery(long pageIndex) {
        return join(filterQuery(), "sort=" + logSort().name().toLowerCase(Locale.ROOT) + "&dir=" + (descending() ? "desc" : "asc")
                + "&page=" + pageIndex);
    }

    /** The query string sorting by {@code column}: toggles the direction when it is already the sort. */
    public String sortQuery(LogSort column) {
        boolean ascending = column == logSort() && descending();
        return join(filterQuery(), "sort=" + column.name().toLowerCase(Locale.ROOT) + "&dir=" + (ascending ? "asc" : "desc"));
    }

    private static String join(String first, String second) {
        return first.isEmpty() ? second : first + "&" + second;
    }

    private static void add(UriComponentsBuilder builder, String name, String value) {
        if (value != null && !value.isBlank()) {
            builder.queryParam(name, value);
        }
    }

    private static LocalDateTime time(String value, String name, List<String> problems) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return value.length() == 10 ? LocalDate.parse(value).atStartOfDay() : LocalDateTime.parse(value);
        } catch (DateTimeParseException e) {
            problems.add(name + ": not a date and time: '" + value + "'");
            return null;
        }
    }
}
