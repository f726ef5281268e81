package dev.ratelimit.console.report;

import java.time.LocalDate;

/** An hour's interceptions as the database groups them: its day and its hour of the day. */
record HourBucket(LocalDate day, int hour, long count) {
}
