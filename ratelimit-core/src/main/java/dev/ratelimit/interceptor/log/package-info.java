@NullMarked
package dev.ratelimit.interceptor.log;

import org.jspecify.annotations.NullMarked;
