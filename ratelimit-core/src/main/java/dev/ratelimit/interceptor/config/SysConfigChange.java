package dev.ratelimit.interceptor.config;

import org.jspecify.annotations.Nullable;

/**
 * One write to the config hash, as an audit trail records it.
 *
 * @param field    the field written
 * @param oldValue its value before, {@code null} if it was absent
 * @param newValue its value after, {@code null} if it was removed
 */
public record SysConfigChange(String field, @Nullable String oldValue, @Nullable String newValue) {
}
