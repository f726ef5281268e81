package dev.ratelimit.console.access;

import java.time.Duration;

/**
 * Login sessions ended before their time (a logout), known to every instance that shares the
 * console's secret. A session carries its own expiry, so a revocation need only be kept until then.
 */
public interface SessionRevocations {

    /** Ends {@code session} everywhere; it would have expired in {@code remaining}. */
    void revoke(String session, Duration remaining);

    boolean isRevoked(String session);
}
