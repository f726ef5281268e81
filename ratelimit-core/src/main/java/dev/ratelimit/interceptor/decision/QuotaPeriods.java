package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.store.CalendarBounds;
import java.time.Clock;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The period starts of each calendar quota around now, computed once per period: the zone's rules are
 * read when the period changes, not on every request. One entry per quota an annotation declares.
 */
final class QuotaPeriods {

    private final ZoneId defaultZone;
    private final Clock clock;
    private final Map<CalendarQuota, CalendarBounds> current = new ConcurrentHashMap<>();

    /** @param defaultZone the zone of quotas that name none ({@code ratelimit.quota.zone}) */
    QuotaPeriods(ZoneId defaultZone, Clock clock) {
        this.defaultZone = defaultZone;
        this.clock = clock;
    }

    /** The starts around now; {@code null} for a limit that is not a calendar quota (the clock is not read). */
    @Nullable CalendarBounds around(CalendarQuota quota) {
        if (!quota.isCalendar()) {
            return null;
        }
        long nowMillis = clock.millis();
        CalendarBounds bounds = current.get(quota);
        if (bounds == null || nowMillis < bounds.current() || nowMillis >= bounds.next()) {
            bounds = CalendarBounds.around(quota.period(), quota.zone() == null ? defaultZone : quota.zone(), nowMillis);
            current.put(quota, bounds);
        }
        return bounds;
    }
}
