package dev.ratelimit.console.report;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.LocalDateTime;

/**
 * One row of the interception log, as the console shows and exports it.
 *
 * @param hits   the identical interceptions this row stands for, from {@code createdAt} on within the coalescing window
 * @param reason {@code limit} (a limit denied the request) or {@code deny} (the deny list refused it)
 */
public record LogEntry(long id, LocalDateTime createdAt, RuleId rule, String user, String ip, String httpMethod,
                       String uri, String dimension, long limitCount, long windowSeconds, boolean shadow, long hits,
                       String reason) {

    /** A row as the log's table holds it, the rule in its two columns: how the report queries make it. */
    public LogEntry(long id, LocalDateTime createdAt, String module, String rule, String user, String ip,
                    String httpMethod, String uri, String dimension, long limitCount, long windowSeconds,
                    boolean shadow, long hits, String reason) {
        this(id, createdAt, RuleId.of(module, rule), user, ip, httpMethod, uri, dimension, limitCount, windowSeconds,
                shadow, hits, reason);
    }
}
