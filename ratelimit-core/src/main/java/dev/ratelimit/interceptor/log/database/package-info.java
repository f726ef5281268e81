@NullMarked
package dev.ratelimit.interceptor.log.database;

import org.jspecify.annotations.NullMarked;
