package dev.ratelimit.interceptor.log.report;

/** How often one rule intercepted. */
public record RuleCount(String module, String rule, long count) {
}
