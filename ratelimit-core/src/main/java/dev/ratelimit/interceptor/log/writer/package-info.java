@NullMarked
package dev.ratelimit.interceptor.log.writer;

import org.jspecify.annotations.NullMarked;
