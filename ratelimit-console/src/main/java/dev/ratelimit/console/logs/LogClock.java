package dev.ratelimit.console.logs;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** "Today" and times as the interception log counts them: in {@code ratelimit.log.time-zone}. */
public record LogClock(Clock clock) {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    public LocalDate today() {
        return LocalDate.now(clock);
    }

    /**
     * A time as a form sends it: the browser's date and time field, in the log's zone, or an ISO instant
     * ({@code ...Z}).
     *
     * @throws DateTimeException when it is neither
     */
    public Instant parse(String text) {
        String time = text.strip();
        return time.endsWith("Z") ? Instant.parse(time) : LocalDateTime.parse(time).atZone(clock.getZone()).toInstant();
    }

    /** A time as the console shows it, in the log's zone. */
    public String format(Instant instant) {
        return TIME.format(instant.atZone(clock.getZone()));
    }
}
