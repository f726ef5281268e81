package dev.ratelimit.console.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Slows password guessing: after {@link #MAX_FAILURES} failed logins from one address within
 * {@link #WINDOW}, that address is refused until the window has passed. In memory and per instance;
 * the table is bounded so a flood of addresses cannot grow it.
 */
final class LoginThrottle {

    static final int MAX_FAILURES = 10;
    static final Duration WINDOW = Duration.ofMinutes(15);
    static final int MAX_TRACKED = 10_000;

    private final ConcurrentMap<String, Failures> failures = new ConcurrentHashMap<>();
    private final Clock clock;

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    boolean isLocked(String client) {
        Failures entry = failures.get(client);
        return entry != null && entry.count() >= MAX_FAILURES && !entry.expired(clock.instant());
    }

    void failed(String client) {
        Instant now = clock.instant();
        if (failures.size() >= MAX_TRACKED) {
            failures.values().removeIf(entry -> entry.expired(now));
            if (failures.size() >= MAX_TRACKED) {
                failures.clear();
            }
        }
        failures.merge(client, new Failures(1, now),
                (old, one) -> old.expired(now) ? one : new Failures(old.count() + 1, old.since()));
    }

    void succeeded(String client) {
        failures.remove(client);
    }

    int tracked() {
        return failures.size();
    }

    private record Failures(int count, Instant since) {

        boolean expired(Instant now) {
            return since.plus(WINDOW).isBefore(now);
        }
    }
}
