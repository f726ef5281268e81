@NullMarked
package dev.ratelimit.interceptor.stats;

import org.jspecify.annotations.NullMarked;
