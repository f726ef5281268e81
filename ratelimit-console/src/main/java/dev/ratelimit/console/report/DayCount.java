package dev.ratelimit.console.report;

import java.time.LocalDate;

/** Interceptions on one day of the log's time zone. */
public record DayCount(LocalDate day, long count) {
}
