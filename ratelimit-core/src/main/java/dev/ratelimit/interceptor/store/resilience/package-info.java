@NullMarked
package dev.ratelimit.interceptor.store.resilience;

import org.jspecify.annotations.NullMarked;
