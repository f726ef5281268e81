package dev.ratelimit.interceptor.internal.store.resilience;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Redis is asked at all. Closed (the normal state), every decision goes to Redis; after
 * {@code threshold} failures in a row (errors, or Redis judged silent or too slow) it opens, and decisions go elsewhere
 * without waiting for Redis, until a probe gets an answer and closes it. Each change is logged once,
 * never per request. Safe for any number of threads: a request reads one volatile field, and a
 * success writes nothing unless failures were counted.
 */
public class CircuitBreaker {

    private static final Logger log = LoggerFactory.getLogger(CircuitBreaker.class);

    /** Whether Redis decides. */
    public enum State {
        /** Redis decides. */
        CLOSED,
        /** Redis is not asked; it is probed in the background. */
        OPEN
    }

    /**
     * A state and when it began.
     *
     * @param lastFailure what made the circuit open, or {@code null} while closed
     */
    public record Status(State state, Instant since, @Nullable String lastFailure) {
    }

    private final int threshold;
    private final String whileOpen;
    private final Clock clock;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicReference<Status> status;

    /**
     * @param threshold failures in a row that open the circuit
     * @param whileOpen what happens to requests while open, for the log ("deciding in this process")
     */
    public CircuitBreaker(int threshold, String whileOpen, Clock clock) {
        if (threshold < 1) {
            throw new IllegalArgumentException("the failure threshold must be at least 1, was " + threshold);
        }
        this.threshold = threshold;
        this.whileOpen = whileOpen;
        this.clock = clock;
        this.status = new AtomicReference<>(new Status(State.CLOSED, clock.instant(), null));
    }

    public boolean isClosed() {
        return current().state() == State.CLOSED;
    }

    public Status status() {
        return current();
    }

    /** Failures counted since the last success. */
    public int consecutiveFailures() {
        return consecutiveFailures.get();
    }

    /** Redis answered a request. */
    public void recordSuccess() {
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
    }

    /**
     * Redis failed a request or did not answer in time; opens the circuit at the threshold.
     *
     * @param reason what went wrong, for the log
     */
    public void recordFailure(String reason) {
        int failures = consecutiveFailures.incrementAndGet();
        if (failures == 1) {
            log.info("Rate limit store: Redis did not decide a request ({}); the failure policy decided it", reason);
        }
        if (failures < threshold) {
            return;
        }
        Status closed = current();
        if (closed.state() == State.CLOSED
                && status.compareAndSet(closed, new Status(State.OPEN, clock.instant(), reason))) {
            log.warn("Rate limit store: Redis failed {} times in a row (last: {}); {} until it answers again",
                    threshold, reason, whileOpen);
        }
    }

    /** A probe got an answer: Redis decides again. */
    public void probeSucceeded() {
        Status open = current();
        if (open.state() == State.OPEN
                && status.compareAndSet(open, new Status(State.CLOSED, clock.instant(), null))) {
            consecutiveFailures.set(0);
            log.info("Rate limit store: Redis answers again after {} s; decisions are back on Redis",
                    Duration.between(open.since(), clock.instant()).toMillis() / 1000.0);
        }
    }

    /** The status: set by the constructor, only ever swapped for another. */
    private Status current() {
        return Objects.requireNonNull(status.get(), "the circuit always has a status");
    }
}
