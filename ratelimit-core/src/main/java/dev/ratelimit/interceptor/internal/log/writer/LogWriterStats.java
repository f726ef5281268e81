package dev.ratelimit.interceptor.internal.log.writer;

/**
 * What the log writer has done since it started, counted in interceptions except {@code rows}.
 *
 * @param written interceptions committed to the table
 * @param rows    rows committed: fewer than {@code written} when identical interceptions were coalesced
 * @param dropped interceptions given up: too many different rows were waiting, the database failed every
 *                attempt, or shutdown ran out of time
 * @param queued  rows waiting now
 */
public record LogWriterStats(long written, long rows, long dropped, int queued) {
}
