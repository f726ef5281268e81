@NullMarked
package dev.ratelimit.interceptor;

import org.jspecify.annotations.NullMarked;
