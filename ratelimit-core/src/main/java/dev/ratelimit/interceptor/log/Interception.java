package dev.ratelimit.interceptor.log;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One request the limiter blocked (or, in shadow mode, would have blocked): a row of the interception log.
 *
 * @param rule     the rule that blocked it; its module and name are the row's {@code module} and {@code rule}
 * @param user     the request's user code, or {@code null}
 * @param ip       the client address as the trusted-proxy rules see it; {@code null} for a call made in no request
 * @param shadow   whether the rule only observes (the request was let through)
 * @param reason   why: a limit, or the deny list (then the rule is {@code deny.ip}, {@code deny.user} or
 *                 {@code deny.key}, and the count and window are 0)
 */
public record Interception(Instant createdAt, RuleId rule, @Nullable String user, @Nullable String ip,
                           String httpMethod, String uri, Dimension dimension, long limitCount,
                           long windowSeconds, boolean shadow, Reason reason) {

    /** A limit's interception. */
    public Interception(Instant createdAt, RuleId rule, @Nullable String user, @Nullable String ip, String httpMethod,
                        String uri, Dimension dimension, long limitCount, long windowSeconds, boolean shadow) {
        this(createdAt, rule, user, ip, httpMethod, uri, dimension, limitCount, windowSeconds, shadow, Reason.LIMIT);
    }

    public Interception {
        reason = reason == null ? Reason.LIMIT : reason;
    }

    /** Why a request was intercepted: the {@code reason} column. */
    public enum Reason {
        /** A limit denied it (or, in shadow mode, would have). */
        LIMIT,
        /** The deny list refused it. */
        DENY;

        private final String value = name().toLowerCase(Locale.ROOT);

        /** {@code limit} or {@code deny}, as the column holds it. */
        public String value() {
            return value;
        }

        /** The reason of a column value, or {@code null} for none. */
        public static @Nullable Reason of(String value) {
            for (Reason reason : values()) {
                if (reason.value.equals(value)) {
                    return reason;
                }
            }
            return null;
        }
    }
}
