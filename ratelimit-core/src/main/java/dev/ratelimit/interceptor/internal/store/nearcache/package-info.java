@NullMarked
package dev.ratelimit.interceptor.internal.store.nearcache;

import org.jspecify.annotations.NullMarked;
