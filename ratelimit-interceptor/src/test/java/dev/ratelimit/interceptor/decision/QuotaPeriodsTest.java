package dev.ratelimit.interceptor.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.store.CalendarBounds;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The period starts are kept for the period and computed again once it ends, in each quota's zone. */
class QuotaPeriodsTest {

    private final QuotaPeriods periods = new QuotaPeriods(ZoneOffset.UTC);

    @Test
    void theStartsOfADayAreKeptUntilMidnightAndThenMoveOn() {
        CalendarQuota day = new CalendarQuota(QuotaPeriod.DAY, null);
        long midnight = Instant.parse("2026-12-02T00:00:00Z").toEpochMilli();

        CalendarBounds before = periods.around(day, midnight - 1);
        assertThat(periods.around(day, midnight - 3_600_000)).isSameAs(before);
        CalendarBounds after = periods.around(day, midnight);

        assertThat(before.next()).isEqualTo(midnight);
        assertThat(after.current()).isEqualTo(midnight);
        assertThat(periods.around(day, midnight - 1)).as("a clock that steps back").isEqualTo(before);
    }

    @Test
    void eachQuotaHasItsOwnZone() {
        long now = Instant.parse("2026-12-01T20:00:00Z").toEpochMilli();

        CalendarBounds utc = periods.around(new CalendarQuota(QuotaPeriod.DAY, null), now);
        CalendarBounds tokyo = periods.around(new CalendarQuota(QuotaPeriod.DAY, ZoneId.of("Asia/Tokyo")), now);

        assertThat(utc.current()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z").toEpochMilli());
        assertThat(tokyo.current()).as("already 2 December in Tokyo")
                .isEqualTo(Instant.parse("2026-12-01T15:00:00Z").toEpochMilli());
        assertThat(periods.around(new CalendarQuota(QuotaPeriod.NONE, null), now)).isNull();
    }
}
