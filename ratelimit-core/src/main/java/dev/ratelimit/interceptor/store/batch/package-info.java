@NullMarked
package dev.ratelimit.interceptor.store.batch;

import org.jspecify.annotations.NullMarked;
