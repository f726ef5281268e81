@NullMarked
package dev.ratelimit.interceptor.config.copy;

import org.jspecify.annotations.NullMarked;
