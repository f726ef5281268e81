package dev.ratelimit.console.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Slows password guessing without locking anybody out: failed logins are counted per client address
 * and user name, and after {@link #FREE_FAILURES} of them each further attempt of that pair must wait,
 * twice as long each time (1 s, 2 s, 4 s... up to {@link #MAX_DELAY}). A pair that stays quiet for
 * {@link #FORGET_AFTER} is forgotten. The right password from an address that has not failed is
 * never held up, and behind a proxy the address is the client's (the limiter's trusted-proxy rules),
 * so one guesser slows only itself. In memory and per instance; bounded, and when full the pairs with
 * the fewest failures go first, so a flood of made-up names cannot push out an active guesser.
 */
final class LoginThrottle {

    static final int FREE_FAILURES = 3;
    static final Duration MAX_DELAY = Duration.ofMinutes(15);
    static final Duration FORGET_AFTER = Duration.ofMinutes(30);
    static final int MAX_TRACKED = 10_000;

    private final ConcurrentMap<String, Failures> failures = new ConcurrentHashMap<>();
    private final Clock clock;

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** How long this address must wait before it may try this user name again; zero when it may now. */
    Duration wait(String address, String username) {
        Failures entry = failures.get(key(address, username));
        if (entry == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(clock.instant(), entry.last().plus(delay(entry.count())));
        return left.isNegative() ? Duration.ZERO : left;
    }

    void failed(String address, String username) {
        Instant now = clock.instant();
        if (failures.size() >= MAX_TRACKED) {
            makeRoom(now);
        }
        failures.merge(key(address, username), new Failures(1, now),
                (old, one) -> old.forgotten(now) ? one : new Failures(old.count() + 1, now));
    }

    void succeeded(String address, String username) {
        failures.remove(key(address, username));
    }

    int tracked() {
        return failures.size();
    }

    /** The wait after {@code count} failures in a row. */
    static Duration delay(int count) {
        if (count < FREE_FAILURES) {
            return Duration.ZERO;
        }
        int doublings = Math.min(count - FREE_FAILURES, 20);
        Duration delay = Duration.ofSeconds(1L << doublings);
        return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
    }

    private void makeRoom(Instant now) {
        failures.values().removeIf(entry -> entry.forgotten(now));
        if (failures.size() < MAX_TRACKED) {
            return;
        }
        List<Map.Entry<String, Failures>> entries = new ArrayList<>(failures.entrySet());
        entries.sort(Comparator.comparingInt((Map.Entry<String, Failures> entry) -> entry.getValue().count())
                .thenComparing(entry -> entry.getValue().last()));
        entries.subList(0, Math.max(1, entries.size() / 10)).forEach(entry -> failures.remove(entry.getKey(), entry.getValue()));
    }

    private static String key(String address, String username) {
        return address + '\n' + username;
    }

    private record Failures(int count, Instant last) {

        boolean forgotten(Instant now) {
            return last.plus(FORGET_AFTER).isBefore(now);
        }
    }
}
