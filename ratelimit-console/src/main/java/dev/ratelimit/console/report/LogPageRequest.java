package dev.ratelimit.console.report;

/**
 * One page of detail rows.
 *
 * @param page       zero-based page number; below 0 reads as 0
 * @param size       rows per page; cut to between 1 and {@code ratelimit.log.report.max-page-size}
 * @param sort       order of the rows; null is newest first
 * @param descending whether the order is reversed
 */
public record LogPageRequest(int page, int size, LogSort sort, boolean descending) {

    public LogPageRequest {
        page = Math.max(0, page);
        if (sort == null) {
            sort = LogSort.TIME;
            descending = true;
        }
    }

    /** The newest rows first. */
    public static LogPageRequest newest(int page, int size) {
        return new LogPageRequest(page, size, LogSort.TIME, true);
    }
}
