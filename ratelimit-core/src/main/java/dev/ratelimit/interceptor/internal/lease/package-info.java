@NullMarked
package dev.ratelimit.interceptor.internal.lease;

import org.jspecify.annotations.NullMarked;
