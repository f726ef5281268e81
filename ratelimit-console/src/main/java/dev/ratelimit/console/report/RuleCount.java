package dev.ratelimit.console.report;

import dev.ratelimit.interceptor.rule.RuleId;

/** How often one rule intercepted. */
public record RuleCount(RuleId rule, long count) {

    /** A count as the log's table groups it, the rule in its two columns: how the report query makes it. */
    public RuleCount(String module, String rule, long count) {
        this(RuleId.of(module, rule), count);
    }
}
