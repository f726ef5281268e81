package dev.ratelimit.interceptor.store;

/**
 * A request given back to a counter: it was admitted, and so counted, but its response did not match
 * its limit's {@code countWhen}; or, for a concurrency limit, it ended and releases its lease.
 *
 * @param request    the counter request the store decided
 * @param reservedAt the {@link Decision#decidedAt()} of that decision, which tells the refund whether the
 *                   request's window is still the current one
 */
public record Refund(CounterRequest request, long reservedAt) {
}
