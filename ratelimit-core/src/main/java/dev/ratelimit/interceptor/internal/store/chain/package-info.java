@NullMarked
package dev.ratelimit.interceptor.internal.store.chain;

import org.jspecify.annotations.NullMarked;
