@NullMarked
package dev.ratelimit.interceptor.method;

import org.jspecify.annotations.NullMarked;
