package dev.ratelimit.interceptor.internal.log.database;

import org.jspecify.annotations.Nullable;

/**
 * LIKE patterns of text taken literally, for the log's and the audit's queries. The escape is
 * {@value #ESCAPE}, not the usual backslash, because MySQL reads a backslash in a string literal as an
 * escape of its own, so no one literal would mean the same on every database; every statement
 * declares it with {@code ESCAPE '!'}.
 */
public final class LikePattern {

    public static final char ESCAPE = '!';

    private LikePattern() {
    }

    /** A pattern matching the values that start with {@code prefix}; {@code null} for {@code null}. */
    public static @Nullable String startsWith(@Nullable String prefix) {
        return prefix == null ? null : literally(prefix) + '%';
    }

    /** A pattern matching {@code text} only; {@code null} for {@code null}. */
    public static @Nullable String literally(@Nullable String text) {
        if (text == null) {
            return null;
        }
        StringBuilder pattern = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ESCAPE || c == '%' || c == '_') {
                pattern.append(ESCAPE);
            }
            pattern.append(c);
        }
        return pattern.toString();
    }
}
