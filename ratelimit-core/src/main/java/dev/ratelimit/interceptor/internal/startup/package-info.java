@NullMarked
package dev.ratelimit.interceptor.internal.startup;

import org.jspecify.annotations.NullMarked;
