@NullMarked
package dev.ratelimit.interceptor.identity;

import org.jspecify.annotations.NullMarked;
