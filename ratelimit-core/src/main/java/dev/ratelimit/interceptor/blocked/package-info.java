@NullMarked
package dev.ratelimit.interceptor.blocked;

import org.jspecify.annotations.NullMarked;
