package dev.ratelimit.console.report;

import java.time.LocalDateTime;

/**
 * Interceptions in one hour of the log's time zone.
 *
 * @param hour the hour's start, a wall-clock time of {@code ratelimit.log.time-zone}
 */
public record HourCount(LocalDateTime hour, long count) {
}
