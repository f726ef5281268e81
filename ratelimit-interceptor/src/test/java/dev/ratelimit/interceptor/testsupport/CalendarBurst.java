package dev.ratelimit.interceptor.testsupport;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.function.UnaryOperator;

/**
 * Runs a burst against a calendar quota until one ran within a single period: a burst that midnight or
 * the 1st cut in two proves nothing about the count of either period, so it runs again for another client.
 */
public final class CalendarBurst {

    /** A burst for a client named after its attempt number, answering how many were admitted. */
    @FunctionalInterface
    public interface Attempt {
        int admitted(int attempt) throws Exception;
    }

    /** What a burst that stayed in one period admitted, and when it ended. */
    public record Result(int admitted, ZonedDateTime endedAt) {
    }

    private CalendarBurst() {
    }

    public static UnaryOperator<ZonedDateTime> dayEnd(ZoneId zone) {
        return now -> now.toLocalDate().plusDays(1).atStartOfDay(zone);
    }

    public static UnaryOperator<ZonedDateTime> monthEnd(ZoneId zone) {
        return now -> now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(zone);
    }

    public static Result withinOnePeriod(ZoneId zone, UnaryOperator<ZonedDateTime> periodEnd, Attempt burst)
            throws Exception {
        for (int attempt = 0; ; attempt++) {
            ZonedDateTime before = ZonedDateTime.now(zone);
            int admitted = burst.admitted(attempt);
            ZonedDateTime after = ZonedDateTime.now(zone);
            if (periodEnd.apply(before).equals(periodEnd.apply(after))) {
                return new Result(admitted, after);
            }
        }
    }
}
