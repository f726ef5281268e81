package dev.ratelimit.interceptor.log;

import dev.ratelimit.interceptor.Dimension;
import java.time.Instant;

/**
 * One request the limiter blocked (or, in shadow mode, would have blocked): a row of the interception log.
 *
 * @param user     the request's user code, or {@code null}
 * @param ip       the client address as the trusted-proxy rules see it
 * @param shadow   whether the rule only observes (the request was let through)
 */
public record Interception(Instant createdAt, String module, String rule, String user, String ip,
                           String httpMethod, String uri, Dimension dimension, long limitCount,
                           long windowSeconds, boolean shadow) {
}
