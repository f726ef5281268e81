package dev.ratelimit.console.logs;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

/** "Today" and times as the interception log counts them: in {@code ratelimit.log.time-zone}. */
public record LogClock(Clock clock) {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    public LocalDate today() {
        return LocalDate.now(clock);
    }

    /** A time as the console shows it, in the log's zone. */
    public String format(Instant instant) {
        return TIME.format(instant.atZone(clock.getZone()));
    }
}
