@NullMarked
package dev.ratelimit.interceptor.config;

import org.jspecify.annotations.NullMarked;
