@NullMarked
package dev.ratelimit.interceptor.log.report;

import org.jspecify.annotations.NullMarked;
