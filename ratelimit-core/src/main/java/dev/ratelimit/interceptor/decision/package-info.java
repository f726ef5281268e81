@NullMarked
package dev.ratelimit.interceptor.decision;

import org.jspecify.annotations.NullMarked;
