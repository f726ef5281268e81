@NullMarked
package dev.ratelimit.interceptor.internal.instance;

import org.jspecify.annotations.NullMarked;
