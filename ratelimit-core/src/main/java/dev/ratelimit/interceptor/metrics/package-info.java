@NullMarked
package dev.ratelimit.interceptor.metrics;

import org.jspecify.annotations.NullMarked;
