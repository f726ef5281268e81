@NullMarked
package dev.ratelimit.interceptor.internal.log.database;

import org.jspecify.annotations.NullMarked;
