@NullMarked
package dev.ratelimit.interceptor.actuate;

import org.jspecify.annotations.NullMarked;
