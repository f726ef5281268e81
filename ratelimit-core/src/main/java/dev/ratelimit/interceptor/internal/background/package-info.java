/** Writes to Redis repeated on threads of their own: statistics, heartbeats, lease renewals. */
@NullMarked
package dev.ratelimit.interceptor.internal.background;

import org.jspecify.annotations.NullMarked;
