package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Refund;
import org.jspecify.annotations.Nullable;

/**
 * What a request took that its ending settles, as {@link RequestLimiter#complete} does.
 *
 * @param kind       how its ending settles it
 * @param expression the limit's {@code countWhen} or {@code costFromResponse}; empty for a lease
 * @param refund     what giving it back takes: the counter request (its cost what was taken) and when it
 *                   was decided
 */
public record Reservation(Kind kind, String expression, Refund refund) {

    /** How a request's ending settles what it took. */
    public enum Kind {
        /** A limit's units, given back unless the response matches {@code countWhen}. */
        COUNT_WHEN,
        /** A concurrency limit's lease, released whatever the response. */
        LEASE,
        /** An estimate, settled at what the response says the request used ({@code costFromResponse}). */
        ESTIMATE
    }

    /** What a request {@code limit} admitted took that its ending settles; {@code null} for nothing. */
    static @Nullable Reservation of(LimitDefinition limit, Refund taken) {
        if (limit.isConcurrency()) {
            return new Reservation(Kind.LEASE, "", taken);
        }
        if (limit.settlesCost()) {
            return new Reservation(Kind.ESTIMATE, limit.cost().fromResponse(), taken);
        }
        return limit.countsSome() ? new Reservation(Kind.COUNT_WHEN, limit.countWhen(), taken) : null;
    }
}
