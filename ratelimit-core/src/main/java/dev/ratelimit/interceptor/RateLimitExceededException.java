package dev.ratelimit.interceptor;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;

/**
 * A call to a limited bean method, or a programmatic acquire, that its limit refused: what an HTTP client
 * gets as a 429. Carries the rule that refused it and how long until a call would be admitted.
 */
public class RateLimitExceededException extends RuntimeException {

    private final transient RuleId rule;
    private final Duration retryAfter;

    /**
     * @param rule       the limit that refused the call; the method's own id when the failure policy refused it
     *                   (Redis away and {@code ratelimit.redis-failure.mode=closed})
     * @param retryAfter how long until a call would be admitted (unless others take the room first)
     */
    public RateLimitExceededException(RuleId rule, Duration retryAfter) {
        this("Rate limit " + rule + " exceeded; a call is admitted again in " + retryAfter.toMillis() + " ms", rule,
                retryAfter);
    }

    private RateLimitExceededException(String message, RuleId rule, Duration retryAfter) {
        super(message);
        this.rule = rule;
        this.retryAfter = retryAfter;
    }

    /**
     * A call whose client or key is on the deny list ({@code <module>.deny.ip}, {@code .user} or {@code .key}).
     *
     * @param untilEnd how long until the entry ends; zero for an entry without an end, which no wait ends
     */
    public static RateLimitExceededException denied(RuleId rule, Duration untilEnd) {
        return new RateLimitExceededException("Denied by the deny list (" + rule + ") "
                + (untilEnd.isZero() ? "until an operator removes the entry" : "for " + untilEnd.toMillis() + " ms more"),
                rule, untilEnd);
    }

    public RuleId rule() {
        return rule;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
