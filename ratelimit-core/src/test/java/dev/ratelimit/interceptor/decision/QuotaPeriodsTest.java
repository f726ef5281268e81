package dev.ratelimit.interceptor.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.store.CalendarBounds;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The period starts are kept for the period and computed again once it ends, in each quota's zone. */
class QuotaPeriodsTest {

    private final ManualClock clock = new ManualClock(0);
    private final QuotaPeriods periods = new QuotaPeriods(ZoneOffset.UTC, clock);

    private CalendarBounds at(long millis, CalendarQuota quota) {
        clock.set(millis);
        return periods.around(quota);
    }

    @Test
    void theStartsOfADayAreKeptUntilMidnightAndThenMoveOn() {
        CalendarQuota day = new CalendarQuota(QuotaPeriod.DAY, null);
        long midnight = Instant.parse("2026-12-02T00:00:00Z").toEpochMilli();

        CalendarBounds before = at(midnight - 1, day);
        assertThat(at(midnight - 3_600_000, day)).isSameAs(before);
        CalendarBounds after = at(midnight, day);

        assertThat(before.next()).isEqualTo(midnight);
        assertThat(after.current()).isEqualTo(midnight);
        assertThat(at(midnight - 1, day)).as("a clock that steps back").isEqualTo(before);
    }

    @Test
    void eachQuotaHasItsOwnZone() {
        long now = Instant.parse("2026-12-01T20:00:00Z").toEpochMilli();

        CalendarBounds utc = at(now, new CalendarQuota(QuotaPeriod.DAY, null));
        CalendarBounds tokyo = at(now, new CalendarQuota(QuotaPeriod.DAY, ZoneId.of("Asia/Tokyo")));

        assertThat(utc.current()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z").toEpochMilli());
        assertThat(tokyo.current()).as("already 2 December in Tokyo")
                .isEqualTo(Instant.parse("2026-12-01T15:00:00Z").toEpochMilli());
        assertThat(at(now, new CalendarQuota(QuotaPeriod.NONE, null))).isNull();
    }
}
