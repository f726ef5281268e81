@NullMarked
package dev.ratelimit.interceptor.internal.config.copy;

import org.jspecify.annotations.NullMarked;
