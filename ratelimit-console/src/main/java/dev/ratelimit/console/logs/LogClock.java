package dev.ratelimit.console.logs;

import java.time.Clock;
import java.time.LocalDate;

/** "Today" as the interception log counts days: in {@code ratelimit.log.time-zone}. */
public record LogClock(Clock clock) {

    public LocalDate today() {
        return LocalDate.now(clock);
    }
}
