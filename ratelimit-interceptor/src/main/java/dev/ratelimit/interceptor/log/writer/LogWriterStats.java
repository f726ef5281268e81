package dev.ratelimit.interceptor.log.writer;

/**
 * What the log writer has done since it started.
 *
 * @param written rows committed to the table
 * @param dropped rows given up: the queue was full, the database failed every attempt, or shutdown ran out of time
 * @param queued  rows waiting in the queue now
 */
public record LogWriterStats(long written, long dropped, int queued) {
}
