package dev.ratelimit.interceptor.testsupport;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The interception log's table read straight with SQL, as a test checks what the writer left there. The
 * reports that page, filter and rank these rows are the console's, and tested there.
 */
public final class LogTable {

    private static final String TABLE = "biz_sys_ratelimit_log";

    private final JdbcTemplate jdbc;

    public LogTable(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** The table of the app's one DataSource. */
    public static LogTable of(ApplicationContext app) {
        return new LogTable(app.getBean(DataSource.class));
    }

    /** Rows matching {@code where} (an SQL condition with {@code ?} for each argument). */
    public long rows(String where, Object... args) {
        Long rows = jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE " + where, Long.class, args);
        return rows == null ? 0 : rows;
    }

    /** The interceptions the matching rows stand for (a row coalesces identical ones in {@code hits}). */
    public long hits(String where, Object... args) {
        Long hits = jdbc.queryForObject("SELECT COALESCE(SUM(hits), 0) FROM " + TABLE + " WHERE " + where, Long.class, args);
        return hits == null ? 0 : hits;
    }

    /** Every matching row's columns, oldest first, keyed by the column's name in lower case. */
    public List<Map<String, Object>> all(String where, Object... args) {
        return jdbc.queryForList("SELECT * FROM " + TABLE + " WHERE " + where + " ORDER BY id", args).stream()
                .map(LogTable::lowerCaseKeys).toList();
    }

    private static Map<String, Object> lowerCaseKeys(Map<String, Object> row) {
        Map<String, Object> lower = new LinkedHashMap<>();
        row.forEach((column, value) -> lower.put(column.toLowerCase(Locale.ROOT), value));
        return lower;
    }
}
