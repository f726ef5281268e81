package dev.ratelimit.console.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Slows password guessing without locking anybody out: failed logins are counted per client address
 * and user name, and after {@link #FREE_FAILURES} of them each further attempt of that pair must wait,
 * twice as long each time (1 s, 2 s, 4 s... up to {@link #MAX_DELAY}). A pair that stays quiet for
 * {@link #FORGET_AFTER} is forgotten. The right password from an address that has not failed is
 * never held up, and behind a proxy the address is the client's (the limiter's trusted-proxy rules),
 * so one guesser slows only itself. In memory and per instance; bounded, and when full the pairs with
 * the fewest failures go first, so a flood of made-up names cannot push out an active guesser.
 * <p>
 * Exact under concurrency: {@link #admit} decides and counts in one atomic step, and an attempt whose
 * password is being checked counts as failed until it is settled, so a burst of posts gets exactly the
 * checks that one post after another would. A pair that has not failed is never refused for attempts
 * still being checked: its next attempt waits for their outcome instead, the time of a password check.
 */
final class LoginThrottle {

    static final int FREE_FAILURES = 3;
    static final Duration MAX_DELAY = Duration.ofMinutes(15);
    static final Duration FORGET_AFTER = Duration.ofMinutes(30);
    static final int MAX_TRACKED = 10_000;
    /** The longest an attempt waits for the outcome of the checks in flight before it is refused. */
    static final Duration CHECKS_WAIT = Duration.ofSeconds(10);

    private final ConcurrentMap<String, Pair> pairs = new ConcurrentHashMap<>();
    private final Clock clock;

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /**
     * Admits an attempt of this address and user name, or says how long it must wait. An admitted attempt
     * (zero) counts as failed until the caller settles it with {@link #succeeded} or {@link #failed}.
     */
    Duration admit(String address, String username) {
        String key = key(address, username);
        long deadline = System.nanoTime() + CHECKS_WAIT.toNanos();
        while (true) {
            Instant now = clock.instant();
            if (!pairs.containsKey(key) && pairs.size() >= MAX_TRACKED) {
                makeRoom(now);
            }
            Decision[] decision = new Decision[1];
            pairs.compute(key, (k, old) -> {
                Pair pair = old == null || old.forgotten(now) ? Pair.NONE : old;
                decision[0] = pair.decide(now);
                return decision[0] == Decision.ADMITTED ? pair.admitted() : old;
            });
            if (decision[0].checks == null) {
                return decision[0].retryAfter;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return delay(FREE_FAILURES);
            }
            awaitOutcome(decision[0].checks, left);
        }
    }

    /** Settles an admitted attempt: the right password forgets the failures of the pair. */
    void succeeded(String address, String username) {
        settle(address, username, Pair::succeeded);
    }

    /** Settles an admitted attempt as one more failure in a row. */
    void failed(String address, String username) {
        settle(address, username, Pair::failed);
    }

    int tracked() {
        return pairs.size();
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

    private void settle(String address, String username, Settlement settlement) {
        Instant now = clock.instant();
        Pair[] before = new Pair[1];
        pairs.computeIfPresent(key(address, username), (k, old) -> {
            before[0] = old;
            return settlement.apply(old, now);
        });
        if (before[0] != null && before[0].checks() != null) {
            before[0].checks().complete(null);
        }
    }

    private static void awaitOutcome(CompletableFuture<Void> checks, long nanos) {
        try {
            checks.get(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while a login waited for the checks in flight", e);
        } catch (ExecutionException | TimeoutException e) {
            // Decided again by the caller: refused once its deadline passed.
        }
    }

    private void makeRoom(Instant now) {
        pairs.values().removeIf(pair -> pair.forgotten(now));
        if (pairs.size() < MAX_TRACKED) {
            return;
        }
        List<Map.Entry<String, Pair>> idle = new ArrayList<>(pairs.entrySet().stream()
                .filter(entry -> entry.getValue().checking() == 0).toList());
        idle.sort(Comparator.comparingInt((Map.Entry<String, Pair> entry) -> entry.getValue().failures())
                .thenComparing(entry -> entry.getValue().last()));
        idle.subList(0, Math.min(idle.size(), Math.max(1, pairs.size() / 10)))
                .forEach(entry -> pairs.remove(entry.getKey(), entry.getValue()));
    }

    private static String key(String address, String username) {
        return address + '\n' + username;
    }

    /** What {@link #admit} decided in its atomic step. */
    private record Decision(Duration retryAfter, CompletableFuture<Void> checks) {

        static final Decision ADMITTED = new Decision(Duration.ZERO, null);

        static Decision refused(Duration retryAfter) {
            return new Decision(retryAfter, null);
        }

        /** Neither admitted nor refused until the checks in flight have an outcome. */
        static Decision awaiting(CompletableFuture<Void> checks) {
            return new Decision(Duration.ZERO, checks);
        }
    }

    @FunctionalInterface
    private interface Settlement {
        Pair apply(Pair pair, Instant now);
    }

    /**
     * One address and user name: its failures in a row, the last at {@code last}, and the attempts
     * being checked, each counted as failed until settled; {@code checks} completes when one is settled.
     */
    private record Pair(int failures, Instant last, int checking, CompletableFuture<Void> checks) {

        static final Pair NONE = new Pair(0, Instant.EPOCH, 0, null);

        Decision decide(Instant now) {
            Duration left = Duration.between(now, last.plus(delay(failures)));
            if (!left.isNegative() && !left.isZero()) {
                return Decision.refused(left);
            }
            if (checking == 0 || delay(failures + checking).isZero()) {
                return Decision.ADMITTED;
            }
            // Had the checks in flight failed, this attempt would have to wait; whether it must, only a
            // pair that already failed is told without waiting for their outcome.
            return failures > 0 ? Decision.refused(delay(failures + checking)) : Decision.awaiting(checks);
        }

        Pair admitted() {
            return new Pair(failures, last, checking + 1, checking == 0 ? new CompletableFuture<>() : checks);
        }

        Pair failed(Instant now) {
            return checked(failures + 1, now);
        }

        Pair succeeded(Instant now) {
            return checking <= 1 ? null : checked(0, last);
        }

        private Pair checked(int newFailures, Instant newLast) {
            int stillChecking = Math.max(0, checking - 1);
            return new Pair(newFailures, newLast, stillChecking, stillChecking == 0 ? null : new CompletableFuture<>());
        }

        boolean forgotten(Instant now) {
            return checking == 0 && last.plus(FORGET_AFTER).isBefore(now);
        }
    }
}
