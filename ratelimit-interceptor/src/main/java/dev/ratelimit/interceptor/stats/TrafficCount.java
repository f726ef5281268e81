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

    /** The rule counted, as a key. */
    public Rule ofRule() {
        return new Rule(module, rule);
    }

    /** A rule of a module: its id is {@code <module>.<name>}. */
    public record Rule(String module, String name) {

        public String id() {
            return module + "." + name;
        }
    }
}
