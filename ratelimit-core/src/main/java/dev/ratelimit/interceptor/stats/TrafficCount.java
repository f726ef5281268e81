package dev.ratelimit.interceptor.stats;

import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Instant;

/**
 * How many requests one rule had with one outcome in one bucket, over every instance.
 *
 * @param bucket the bucket's start
 */
public record TrafficCount(RuleId rule, Outcome outcome, Instant bucket, long count) {
}
