package dev.ratelimit.interceptor;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;

/**
 * What a client has left of one rule now, as {@code RateLimitService.peek} reads it without counting:
 * for a front end to show "3 of 5 left".
 *
 * @param rule       the rule
 * @param count      the units per window in force
 * @param remaining  the units free now
 * @param retryAfter how long until a request is admitted: zero while one would be
 * @param resetIn    how long until the whole quota is back
 */
public record Allowance(RuleId rule, long count, long remaining, Duration retryAfter, Duration resetIn) {
}
