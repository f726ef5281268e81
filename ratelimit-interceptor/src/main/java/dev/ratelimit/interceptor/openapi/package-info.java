@NullMarked
package dev.ratelimit.interceptor.openapi;

import org.jspecify.annotations.NullMarked;
