/** The config hash kept fresh: the announcements of changes, and the tracking of every write of the hash. */
@NullMarked
package dev.ratelimit.interceptor.internal.config;

import org.jspecify.annotations.NullMarked;
