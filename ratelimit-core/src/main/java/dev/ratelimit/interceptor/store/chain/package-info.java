@NullMarked
package dev.ratelimit.interceptor.store.chain;

import org.jspecify.annotations.NullMarked;
