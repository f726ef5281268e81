@NullMarked
package dev.ratelimit.interceptor.lease;

import org.jspecify.annotations.NullMarked;
