@NullMarked
package dev.ratelimit.interceptor.instance;

import org.jspecify.annotations.NullMarked;
