package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Decision;
import java.time.Duration;
import java.util.List;

/**
 * What happens to a request, as the web layer needs it to write the response.
 *
 * @param limits     the enforced limits that counted the request (shadow limits are invisible to clients)
 * @param decisions  their decisions, in the same order
 * @param reported   the limit the {@code RateLimit} field reports: the denial that lasts longest when
 *                   rejected, else the limit closest to its end; -1 when there is none
 * @param retryAfter for {@link Kind#REFUSE}: when to try again
 * @param reservations the units taken from limits that count only some responses, shadow limits included
 */
public record Verdict(Kind kind, List<LimitDefinition> limits, List<Decision> decisions, int reported,
                      Duration retryAfter, List<Reservation> reservations) {

    /** What the web layer does. */
    public enum Kind {
        /** The request goes on, without rate limit fields: no limit counted it, or none could decide. */
        PASS,
        /** The request goes on; the rate limit fields describe its limits. */
        ADMIT,
        /** A limit denied the request. */
        REJECT,
        /** No limit could decide, and the failure policy refuses the request (503). */
        REFUSE
    }

    static final Verdict PASS = new Verdict(Kind.PASS, List.of(), List.of(), -1, Duration.ZERO, List.of());

    public Verdict {
        limits = List.copyOf(limits);
        decisions = List.copyOf(decisions);
        reservations = List.copyOf(reservations);
    }

    static Verdict refuse(Duration retryAfter) {
        return new Verdict(Kind.REFUSE, List.of(), List.of(), -1, retryAfter, List.of());
    }

    public LimitDefinition reportedLimit() {
        return limits.get(reported);
    }

    public Decision reportedDecision() {
        return decisions.get(reported);
    }
}
