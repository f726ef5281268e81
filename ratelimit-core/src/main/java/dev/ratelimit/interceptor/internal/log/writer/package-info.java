@NullMarked
package dev.ratelimit.interceptor.internal.log.writer;

import org.jspecify.annotations.NullMarked;
