package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.QuotaPeriod;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * The starts of four calendar periods in a row, in epoch ms: the one before the current one, the current
 * one, the next, and the one after. The instance computes them by its own clock; the store picks the
 * period that holds its own time (Redis' clock), which may lie in a neighbour when the clocks differ
 * near a boundary. Local midnight comes from the zone's rules, so a day across a daylight-saving change
 * lasts 23 or 25 hours, and a month its own length.
 */
public record CalendarBounds(long previous, long current, long next, long afterNext) {

    public CalendarBounds {
        if (!(previous < current && current < next && next < afterNext)) {
            throw new IllegalArgumentException("period starts must increase: " + previous + ", " + current + ", "
                    + next + ", " + afterNext);
        }
    }

    /** The periods around {@code nowMillis} in {@code zone}. */
    public static CalendarBounds around(QuotaPeriod period, ZoneId zone, long nowMillis) {
        LocalDate first = period.firstDay(Instant.ofEpochMilli(nowMillis).atZone(zone).toLocalDate());
        return new CalendarBounds(start(period.shift(first, -1), zone), start(first, zone),
                start(period.shift(first, 1), zone), start(period.shift(first, 2), zone));
    }

    /** The start of the period that holds {@code now}, and its end: as {@code calendar_window.lua} picks them. */
    public long[] periodOf(long now) {
        if (now < current) {
            return new long[] {previous, current};
        }
        return now < next ? new long[] {current, next} : new long[] {next, afterNext};
    }

    private static long start(LocalDate day, ZoneId zone) {
        return day.atStartOfDay(zone).toInstant().toEpochMilli();
    }
}
