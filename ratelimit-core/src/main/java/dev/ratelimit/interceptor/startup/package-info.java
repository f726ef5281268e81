@NullMarked
package dev.ratelimit.interceptor.startup;

import org.jspecify.annotations.NullMarked;
