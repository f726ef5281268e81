package dev.ratelimit.interceptor.internal.log.writer;

import dev.ratelimit.interceptor.log.Interception;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * An interception as a row of {@code biz_sys_ratelimit_log}, with the identical ones it stands for
 * ({@code hits}): the time on the log's wall clock, and
 * every string cut to its column, so no single request (a huge URI, a long user code) can fail the
 * batch it travels in.
 */
record LogRow(LocalDateTime createdAt, String module, String rule, @Nullable String user, @Nullable String ip,
              String httpMethod, String uri, String dimension, long limitCount, long windowSeconds, boolean shadow,
              long hits, String reason) {

    static final int MODULE_LENGTH = 64;
    static final int RULE_LENGTH = 255;
    static final int USER_LENGTH = 128;
    static final int IP_LENGTH = 64;
    static final int HTTP_METHOD_LENGTH = 16;
    static final int URI_LENGTH = 1024;
    static final int DIMENSION_LENGTH = 16;

    /** @param hits the identical interceptions the row stands for, this one included */
    static LogRow of(Interception interception, long hits, ZoneId zone) {
        Instant createdAt = interception.createdAt() == null ? Instant.now() : interception.createdAt();
        return new LogRow(LocalDateTime.ofInstant(createdAt, zone),
                required(interception.rule().module(), MODULE_LENGTH),
                required(interception.rule().rule(), RULE_LENGTH),
                optional(interception.user(), USER_LENGTH),
                optional(interception.ip(), IP_LENGTH),
                required(interception.httpMethod(), HTTP_METHOD_LENGTH),
                required(interception.uri(), URI_LENGTH),
                required(interception.dimension() == null ? null : interception.dimension().name(), DIMENSION_LENGTH),
                interception.limitCount(), interception.windowSeconds(), interception.shadow(), hits,
                interception.reason().value());
    }

    private static String required(@Nullable String value, int length) {
        return value == null ? "" : cut(value, length);
    }

    private static @Nullable String optional(@Nullable String value, int length) {
        return value == null ? null : cut(value, length);
    }

    /** At most {@code length} chars, never splitting a surrogate pair (the columns count characters). */
    private static String cut(String value, int length) {
        if (value.length() <= length) {
            return value;
        }
        int end = Character.isHighSurrogate(value.charAt(length - 1)) ? length - 1 : length;
        return value.substring(0, end);
    }
}
