@NullMarked
package dev.ratelimit.interceptor.autoconfigure;

import org.jspecify.annotations.NullMarked;
