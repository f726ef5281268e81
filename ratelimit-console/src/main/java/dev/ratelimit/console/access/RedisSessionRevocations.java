package dev.ratelimit.console.access;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Revoked sessions in Redis, one key each ({@code {p}:console:revoked:<session>}) that lives as long as
 * the session would have, so every instance refuses a logged-out cookie. While Redis does not answer a
 * session cannot be checked and is taken as not revoked, with one warning: the console stays usable in
 * a Redis outage, when operators need it.
 */
public class RedisSessionRevocations implements SessionRevocations {

    private static final Logger log = LoggerFactory.getLogger(RedisSessionRevocations.class);

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private volatile boolean warned;

    public RedisSessionRevocations(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void revoke(String session, Duration remaining) {
        if (!remaining.isNegative() && !remaining.isZero()) {
            redis.sync().psetex(key(session), remaining.toMillis(), "1");
        }
    }

    @Override
    public boolean isRevoked(String session) {
        try {
            return redis.sync().exists(key(session)) > 0;
        } catch (RuntimeException e) {
            if (!warned) {
                warned = true;
                log.warn("Rate limit console: cannot check whether a login was ended (Redis: {}); accepting logins "
                        + "until Redis answers", e.toString());
            }
            return false;
        }
    }

    private String key(String session) {
        return keys.revokedConsoleSession(session);
    }
}
