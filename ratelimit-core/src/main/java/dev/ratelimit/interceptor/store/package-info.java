@NullMarked
package dev.ratelimit.interceptor.store;

import org.jspecify.annotations.NullMarked;
