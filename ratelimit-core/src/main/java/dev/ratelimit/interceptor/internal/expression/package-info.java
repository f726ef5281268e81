@NullMarked
package dev.ratelimit.interceptor.internal.expression;

import org.jspecify.annotations.NullMarked;
