package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Penalty;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * A limit as text, the one way every view shows one (the API index, the actuator endpoint, the console,
 * the rules document): each part in the notation of the config hash, and a part at its default left
 * out ({@code null}).
 *
 * @param count         requests admitted per window
 * @param windowSeconds the window; for a calendar quota, the longest period
 * @param dimension     who is counted together: {@code USER}, {@code IP}, {@code METHOD}, {@code GLOBAL}, {@code CUSTOM}
 * @param algorithm     how the counter decides ({@code FIXED_WINDOW}...)
 * @param penalty       how long a denied client stays denied, in seconds: {@code 900} or {@code 900..14400}
 * @param cost          what one request weighs: a number, or its cost expression; with {@code costFromResponse},
 *                      the estimate taken before the handler
 * @param costFromResponse the expression on the response of what a request used, settled after it
 * @param countWhen     the condition on the response for a request to stay counted
 * @param quota         a calendar quota's period and zone: {@code DAY}, {@code MONTH Asia/Tokyo}
 * @param plan          the expression that resolves a client's plan
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LimitDescription(long count, long windowSeconds, String dimension, String algorithm,
                               @Nullable String penalty, @Nullable String cost, @Nullable String costFromResponse,
                               @Nullable String countWhen, @Nullable String quota, @Nullable String plan) {

    public static LimitDescription of(LimitDefinition limit) {
        return new LimitDescription(limit.count(), limit.windowSeconds(), limit.dimension().name(),
                limit.algorithm().name(), limit.penalty().applies() ? LimitSpec.formatPenalty(limit.penalty()) : null,
                limit.cost().describe(), limit.settlesCost() ? limit.cost().fromResponse() : null,
                limit.countsSome() ? limit.countWhen() : null, limit.quota().describe(),
                limit.plan().isEmpty() ? null : limit.plan());
    }

    /**
     * The limit this describes, for a reader of the API index: everything a view shows and an override
     * changes. What only deciding needs (a custom key, the rejection message) stays with the app.
     *
     * @throws IllegalArgumentException when a part does not read (an index written by another version)
     */
    public LimitDefinition toDefinition(RuleId id) {
        return new LimitDefinition(id, count, windowSeconds, Dimension.valueOf(dimension), Algorithm.valueOf(algorithm),
                "", LimitDefinition.DEFAULT_MESSAGE_KEY, countWhen == null ? "" : countWhen,
                penalty == null ? Penalty.NONE : LimitSpec.parsePenalty(penalty), requestCost(), calendarQuota(),
                plan == null ? "" : plan);
    }

    /** The limit in the notation of the config hash: {@code 5/60}, {@code 100/60 ip token_bucket}, {@code 1000/day}. */
    public String text() {
        return LimitSpec.text(count, windowSeconds, Dimension.valueOf(dimension), Algorithm.valueOf(algorithm),
                calendarQuota().period(), penalty == null ? Penalty.NONE : LimitSpec.parsePenalty(penalty));
    }

    private RequestCost requestCost() {
        String fromResponse = costFromResponse == null ? "" : costFromResponse;
        if (cost == null) {
            return fromResponse.isEmpty() ? RequestCost.ONE : new RequestCost(1, "", fromResponse);
        }
        return cost.chars().allMatch(Character::isDigit) ? new RequestCost(Long.parseLong(cost), "", fromResponse)
                : new RequestCost(1, cost, fromResponse);
    }

    private CalendarQuota calendarQuota() {
        if (quota == null) {
            return CalendarQuota.NONE;
        }
        int space = quota.indexOf(' ');
        return space < 0 ? new CalendarQuota(QuotaPeriod.valueOf(quota), null)
                : new CalendarQuota(QuotaPeriod.valueOf(quota.substring(0, space)), ZoneId.of(quota.substring(space + 1)));
    }
}
