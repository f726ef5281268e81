package dev.ratelimit.console.report;

/**
 * What a filter matches.
 *
 * @param rows rows of the table
 * @param hits interceptions: a row stands for {@code hits} identical ones
 */
record LogTotals(long rows, long hits) {
}
