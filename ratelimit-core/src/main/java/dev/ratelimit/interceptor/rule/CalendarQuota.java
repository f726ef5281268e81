package dev.ratelimit.interceptor.rule;

import dev.ratelimit.interceptor.QuotaPeriod;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * A limit's calendar period ({@code quota}) and its time zone.
 *
 * @param period the period, {@link QuotaPeriod#NONE} for a window of {@code interval} from the first request
 * @param zone   its time zone, or {@code null} for {@code ratelimit.quota.zone}
 */
public record CalendarQuota(QuotaPeriod period, @Nullable ZoneId zone) {

    /** Not a calendar quota. */
    public static final CalendarQuota NONE = new CalendarQuota(QuotaPeriod.NONE, null);

    public boolean isCalendar() {
        return period != QuotaPeriod.NONE;
    }

    /** {@code "DAY"} (in the default zone) or {@code "MONTH Asia/Tokyo"}; {@code null} when not a quota. */
    public @Nullable String describe() {
        return !isCalendar() ? null : zone == null ? period.name() : period.name() + " " + zone.getId();
    }
}
