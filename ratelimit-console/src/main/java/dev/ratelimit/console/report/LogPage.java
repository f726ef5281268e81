package dev.ratelimit.console.report;

import java.util.List;

/**
 * One page of detail rows.
 *
 * @param total rows matching the filter on all pages
 * @param hits  interceptions those rows stand for
 * @param size  the page size in force (after the cap)
 */
public record LogPage(List<LogEntry> rows, long total, long hits, int page, int size) {

    public LogPage {
        rows = List.copyOf(rows);
    }

    public long pages() {
        return (total + size - 1) / size;
    }
}
