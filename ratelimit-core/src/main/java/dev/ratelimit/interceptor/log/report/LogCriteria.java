package dev.ratelimit.interceptor.log.report;

import dev.ratelimit.interceptor.log.database.LikePattern;
import java.time.LocalDateTime;

/** A {@link LogFilter} as the mapper binds it: names and prefixes turned into {@link LikePattern}s. */
record LogCriteria(LocalDateTime from, LocalDateTime to, String module, String rulePattern, String userPattern,
                   String ipPattern, String reason) {

    static LogCriteria of(LogFilter filter) {
        String rule = filter.wholeRule() ? LikePattern.literally(filter.rule()) : LikePattern.startsWith(filter.rule());
        return new LogCriteria(filter.from(), filter.to(), filter.module(), rule,
                LikePattern.startsWith(filter.user()), LikePattern.startsWith(filter.ip()),
                filter.reason() == null ? null : filter.reason().value());
    }
}
