package dev.ratelimit.interceptor;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;

/**
 * A calendar period of a quota ({@link RateLimit#quota()}): the count is for each local day, ISO week
 * (from Monday) or month, resetting at local midnight in the quota's time zone, whatever the length of
 * that day (23 or 25 hours across a daylight-saving change) or month.
 */
public enum QuotaPeriod {

    /** Not a calendar quota: the window is {@code interval} and {@code unit}. */
    NONE(0),
    DAY(24 * 3600),
    WEEK(7 * 24 * 3600),
    MONTH(31 * 24 * 3600);

    private final long longestSeconds;

    QuotaPeriod(long longestSeconds) {
        this.longestSeconds = longestSeconds;
    }

    /** The longest such period, as the limit's nominal window ({@code RateLimit-Policy}'s {@code w}). */
    public long longestSeconds() {
        return longestSeconds;
    }

    /** The first day of the period that holds {@code date}. */
    public LocalDate firstDay(LocalDate date) {
        return switch (this) {
            case DAY -> date;
            case WEEK -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> date.withDayOfMonth(1);
            case NONE -> throw new IllegalStateException("not a calendar period");
        };
    }

    /** The first day of the period {@code periods} after (or before, when negative) the one starting on {@code first}. */
    public LocalDate shift(LocalDate first, int periods) {
        return switch (this) {
            case DAY -> first.plusDays(periods);
            case WEEK -> first.plusWeeks(periods);
            case MONTH -> first.plusMonths(periods);
            case NONE -> throw new IllegalStateException("not a calendar period");
        };
    }
}
