package dev.ratelimit.console.report;

/**
 * The orders a detail page can be sorted in: the only ones, since an ORDER BY cannot be a bound
 * parameter. Rows without a user or IP come last either way, on every database.
 */
public enum LogSort {
    TIME, MODULE, RULE, USER, IP, URI
}
