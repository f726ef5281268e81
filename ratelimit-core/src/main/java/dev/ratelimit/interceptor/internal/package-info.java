/**
 * The limiter's machinery, which its own modules use across packages and apps never need: the store chain
 * (batches of permits, the near cache of denials, the circuit breaker and failover), the leases of concurrency
 * limits, the instance list, start-up work, the interception log's writer and database, expressions and the
 * durable copy of the rules. Nothing under this package is API: it may change in any release. What an app
 * writes, replaces or reads (the annotation, {@code RateLimitService}, the stores' and the log's interfaces, the
 * rule model, the editor) lives outside it.
 */
@NullMarked
package dev.ratelimit.interceptor.internal;

import org.jspecify.annotations.NullMarked;
