@NullMarked
package dev.ratelimit.interceptor.expression;

import org.jspecify.annotations.NullMarked;
