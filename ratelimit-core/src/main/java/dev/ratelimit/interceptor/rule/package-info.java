@NullMarked
package dev.ratelimit.interceptor.rule;

import org.jspecify.annotations.NullMarked;
