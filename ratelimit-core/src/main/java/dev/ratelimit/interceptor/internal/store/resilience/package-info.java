@NullMarked
package dev.ratelimit.interceptor.internal.store.resilience;

import org.jspecify.annotations.NullMarked;
