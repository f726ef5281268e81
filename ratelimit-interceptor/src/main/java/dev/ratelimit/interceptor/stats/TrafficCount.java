package dev.ratelimit.interceptor.stats;

import dev.ratelimit.interceptor.metrics.Outcome;
import java.time.Instant;

/**
 * How many requests one rule had with one outcome in one bucket, over every instance.
 *
 * @param rule   the rule's name within its module (its id is {@code <module>.<rule>})
 * @param bucket the bucket's start
 */
public record TrafficCount(String module, String rule, Outcome outcome, Instant bucket, long count) {

    public String ruleId() {
        return module + "." + rule;
    }
}
