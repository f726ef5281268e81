@NullMarked
package dev.ratelimit.interceptor.store.memory;

import org.jspecify.annotations.NullMarked;
