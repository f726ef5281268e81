package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.identity.DenyList.Entry;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Decision;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What happens to a request, as the web layer needs it to write the response.
 *
 * @param limits     the enforced limits that counted the request (shadow limits are invisible to clients)
 * @param decisions  their decisions, in the same order
 * @param reported   the limit the {@code RateLimit} field reports: the denial that lasts longest when
 *                   rejected, else the limit closest to its end; -1 when there is none
 * @param retryAfter for {@link Kind#REFUSE}: when to try again; for {@link Kind#DENY}: until the entry ends
 *                   (zero for an entry without an end)
 * @param reservations what the request took that its ending settles ({@link Reservation}), shadow limits included
 * @param cost       for {@link Kind#TOO_COSTLY}: what the request weighs for its only limit, else 0
 * @param denial     for {@link Kind#DENY}: the deny-list entry that refused the request, else {@code null}
 */
public record Verdict(Kind kind, List<LimitDefinition> limits, List<Decision> decisions, int reported,
                      Duration retryAfter, List<Reservation> reservations, long cost, @Nullable Entry denial) {

    /** What the web layer does. */
    public enum Kind {
        /** The request goes on, without rate limit fields: no limit counted it, or none could decide. */
        PASS,
        /** The request goes on; the rate limit fields describe its limits. */
        ADMIT,
        /** A limit denied the request. */
        REJECT,
        /** No limit could decide, and the failure policy refuses the request (503). */
        REFUSE,
        /** The request weighs more than its limit's whole count: no wait would let it pass (400). */
        TOO_COSTLY,
        /** The deny list refuses the client, before any limit counted the request (403 by default). */
        DENY
    }

    static final Verdict PASS = new Verdict(Kind.PASS, List.of(), List.of(), -1, Duration.ZERO, List.of(), 0);

    /** A verdict of any kind but {@link Kind#DENY}. */
    public Verdict(Kind kind, List<LimitDefinition> limits, List<Decision> decisions, int reported, Duration retryAfter,
                   List<Reservation> reservations, long cost) {
        this(kind, limits, decisions, reported, retryAfter, reservations, cost, null);
    }

    public Verdict {
        limits = List.copyOf(limits);
        decisions = List.copyOf(decisions);
        reservations = List.copyOf(reservations);
    }

    static Verdict refuse(Duration retryAfter) {
        return new Verdict(Kind.REFUSE, List.of(), List.of(), -1, retryAfter, List.of(), 0);
    }

    static Verdict tooCostly(LimitDefinition limit, long cost) {
        return new Verdict(Kind.TOO_COSTLY, List.of(limit), List.of(), 0, Duration.ZERO, List.of(), cost);
    }

    static Verdict deny(Entry entry, Duration retryAfter) {
        return new Verdict(Kind.DENY, List.of(), List.of(), -1, retryAfter, List.of(), 0, entry);
    }

    public LimitDefinition reportedLimit() {
        return limits.get(reported);
    }

    public Decision reportedDecision() {
        return decisions.get(reported);
    }
}
