package dev.ratelimit.interceptor.log.report;

import java.util.List;

/**
 * One page of detail rows.
 *
 * @param total rows matching the filter on all pages
 * @param size  the page size in force (after the cap)
 */
public record LogPage(List<LogEntry> rows, long total, int page, int size) {

    public LogPage {
        rows = List.copyOf(rows);
    }

    public long pages() {
        return (total + size - 1) / size;
    }
}
