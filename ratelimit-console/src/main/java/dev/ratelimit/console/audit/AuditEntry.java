package dev.ratelimit.console.audit;

import java.time.Instant;

/** One change an operator made: who, when, which config field, from what to what ({@code null}: absent). */
public record AuditEntry(Instant at, String operator, String field, String oldValue, String newValue) {
}
