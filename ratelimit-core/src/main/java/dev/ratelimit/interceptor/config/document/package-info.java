@NullMarked
package dev.ratelimit.interceptor.config.document;

import org.jspecify.annotations.NullMarked;
