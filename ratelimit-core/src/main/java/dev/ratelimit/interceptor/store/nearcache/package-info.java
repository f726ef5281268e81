@NullMarked
package dev.ratelimit.interceptor.store.nearcache;

import org.jspecify.annotations.NullMarked;
