package dev.ratelimit.interceptor.log.report;

import java.time.LocalDateTime;

/** A {@link LogFilter} as the mapper binds it: prefixes turned into escaped LIKE patterns. */
record LogCriteria(LocalDateTime from, LocalDateTime to, String module, String rulePattern, String userPattern,
                   String ipPattern) {

    /** The escape character of every pattern; the statements declare it with {@code ESCAPE '!'}. */
    static final char ESCAPE = '!';

    static LogCriteria of(LogFilter filter) {
        return new LogCriteria(filter.from(), filter.to(), filter.module(), startsWith(filter.rule()),
                startsWith(filter.user()), startsWith(filter.ip()));
    }

    /**
     * A LIKE pattern matching values that start with {@code prefix} taken literally. The escape is
     * {@code !}, not the usual backslash, because MySQL reads a backslash in a string literal as an
     * escape of its own, so no one literal would mean the same on every database.
     */
    static String startsWith(String prefix) {
        if (prefix == null) {
            return null;
        }
        StringBuilder pattern = new StringBuilder(prefix.length() + 8);
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == ESCAPE || c == '%' || c == '_') {
                pattern.append(ESCAPE);
            }
            pattern.append(c);
        }
        return pattern.append('%').toString();
    }
}
