package dev.ratelimit.interceptor.store.resilience;

import java.time.Duration;
import java.util.Locale;

/**
 * Redis cannot decide and the failure policy says not to decide elsewhere: the caller lets the
 * request pass ({@link FailurePolicy#OPEN}) or refuses it ({@link FailurePolicy#CLOSED}). Thrown on
 * every limited request during an outage, so it carries no stack trace.
 */
public class StoreUnavailableException extends RuntimeException {

    private final FailurePolicy policy;
    private final Duration retryAfter;

    /** @param retryAfter when Redis will be tried again */
    public StoreUnavailableException(FailurePolicy policy, Duration retryAfter) {
        super("Redis does not answer (ratelimit.redis-failure.mode=" + policy.name().toLowerCase(Locale.ROOT)
                + ")", null, false, false);
        this.policy = policy;
        this.retryAfter = retryAfter;
    }

    public FailurePolicy policy() {
        return policy;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
