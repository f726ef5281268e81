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
        super("Rate limit " + rule + " exceeded; a call is admitted again in " + retryAfter.toMillis() + " ms");
        this.rule = rule;
        this.retryAfter = retryAfter;
    }

    public RuleId rule() {
        return rule;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
