@NullMarked
package dev.ratelimit.interceptor.internal.store.batch;

import org.jspecify.annotations.NullMarked;
