package dev.ratelimit.console.report;

import dev.ratelimit.interceptor.internal.log.database.LikePattern;
import java.time.LocalDateTime;
import org.jspecify.annotations.Nullable;

/** A {@link LogFilter} as the mapper binds it: names and prefixes turned into {@link LikePattern}s. */
record LogCriteria(@Nullable LocalDateTime from, @Nullable LocalDateTime to, @Nullable String module,
                   @Nullable String rulePattern, @Nullable String userPattern, @Nullable String ipPattern,
                   @Nullable String reason) {

    static LogCriteria of(LogFilter filter) {
        String rule = filter.wholeRule() ? LikePattern.literally(filter.rule()) : LikePattern.startsWith(filter.rule());
        return new LogCriteria(filter.from(), filter.to(), filter.module(), rule,
                LikePattern.startsWith(filter.user()), LikePattern.startsWith(filter.ip()),
                filter.reason() == null ? null : filter.reason().value());
    }
}
