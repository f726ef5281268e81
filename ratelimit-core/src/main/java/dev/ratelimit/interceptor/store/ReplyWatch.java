package dev.ratelimit.interceptor.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the replies of the limiter's connection and tells a Redis that stopped answering from a
 * process that was too slow to read the answer. A wall-clock timeout per command cannot: when this
 * process is paused (a stop-the-world collection, a stopped container) or starved of CPU, every
 * command in flight outlives its timeout though Redis answered at once, and deciding those requests
 * elsewhere would count them twice.
 *
 * <p>So the wait is counted in slices of a quarter of the silence timeout, and only slices in which
 * this process could have read a reply count: the waiting thread woke on time (not more than a slice
 * late: the process was not paused) and the threads that read the connection's replies ran during the
 * slice ({@link ReplyReaders}: a starved process runs the thread that slept long before its busy event
 * loop). Redis is judged silent when no reply at all (to any command of the connection) arrived during
 * four such slices in a row; a request whose reply does not come within the maximum wait, counted in
 * such slices, is given up too, although Redis still answers others: Redis is too slow, or this machine
 * too busy to wait on. A pause of the process, or a starved event loop, therefore costs nothing but
 * the wait, and the replies that arrived meanwhile are read as soon as the loop runs; Lettuce's own
 * command timeout bounds a wait in which the loop never runs.
 */
final class ReplyWatch {

    /** How a wait ended. */
    enum Outcome {
        /** Every reply is in (some may be error replies). */
        ANSWERED,
        /** Redis answered nothing for the silence timeout. */
        SILENT,
        /** Redis answers others, but not these within the maximum wait. */
        TOO_SLOW,
        /** The waiting thread was interrupted. */
        INTERRUPTED
    }

    private static final int SLICES_PER_SILENCE = 4;
    /** The part of a slice a reply may take before the readers are asked to note that they run. */
    private static final int QUIET_PARTS_PER_SLICE = 8;

    private final Duration silence;
    private final Duration maxWait;
    private final long sliceNanos;
    private final long quietNanos;
    private final int maxSlices;
    private final AtomicLong replies = new AtomicLong();

    /**
     * @param silence how long Redis may answer nothing while a command waits before it is judged silent
     * @param maxWait the longest one request waits for its replies while Redis answers others
     */
    ReplyWatch(Duration silence, Duration maxWait) {
        if (maxWait.compareTo(silence) < 0) {
            throw new IllegalArgumentException("the maximum wait for Redis (" + maxWait
                    + ") must not be shorter than its silence timeout (" + silence + ")");
        }
        this.silence = silence;
        this.maxWait = maxWait;
        this.sliceNanos = Math.max(1, silence.toNanos() / SLICES_PER_SILENCE);
        this.quietNanos = Math.max(1, sliceNanos / QUIET_PARTS_PER_SLICE);
        this.maxSlices = (int) Math.min(Integer.MAX_VALUE, Math.max(SLICES_PER_SILENCE, maxWait.toNanos() / sliceNanos));
    }

    Duration silence() {
        return silence;
    }

    Duration maxWait() {
        return maxWait;
    }

    /** Every reply of the connection, answered or failed, to be called as it arrives. */
    <T> CompletableFuture<T> watch(CompletableFuture<T> reply) {
        reply.whenComplete((value, error) -> replies.incrementAndGet());
        return reply;
    }

    Outcome await(List<? extends CompletableFuture<?>> pending, ReplyReaders readers) {
        int slices = 0;
        int silent = 0;
        long seen = replies.get();
        for (CompletableFuture<?> reply : pending) {
            if (!reply.isDone()) {
                Thread waiter = Thread.currentThread();
                reply.whenComplete((value, error) -> LockSupport.unpark(waiter));
            }
            while (!reply.isDone()) {
                long start = System.nanoTime();
                // Nearly every reply comes within microseconds: the readers are asked to note when they run only
                // once a reply is late, so that an answered request costs them nothing. Asked at every wait, an
                // idle event loop was woken for every decision, taking CPU from the threads that decide.
                Wait wait = waitFor(reply, quietNanos);
                long asked = start;
                if (wait == Wait.LATE) {
                    readers.check();
                    asked = System.nanoTime();
                    wait = waitFor(reply, Math.max(1, sliceNanos - (asked - start)));
                }
                if (wait == Wait.INTERRUPTED) {
                    return Outcome.INTERRUPTED;
                }
                if (wait == Wait.LATE) {
                    // The slice counts only if the readers ran after they were asked, within it.
                    boolean couldRead = System.nanoTime() - start < 2 * sliceNanos && readers.ranSince(asked);
                    long now = replies.get();
                    if (now != seen) {
                        silent = 0;
                    } else if (couldRead) {
                        silent++;
                    }
                    seen = now;
                    if (silent >= SLICES_PER_SILENCE) {
                        return Outcome.SILENT;
                    }
                    if (couldRead && ++slices >= maxSlices) {
                        return Outcome.TOO_SLOW;
                    }
                }
            }
        }
        return Outcome.ANSWERED;
    }

    /** How one wait for a reply ended. */
    private enum Wait { DONE, LATE, INTERRUPTED }

    /**
     * Parks until the reply is in (its completion unparks the thread, see {@link #await}) or {@code nanos} have
     * passed. Not {@code CompletableFuture.get} with a timeout: a late reply would cost a {@code TimeoutException}
     * and its stack trace, on a request thread, whenever this machine is busy.
     */
    private static Wait waitFor(CompletableFuture<?> reply, long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (!reply.isDone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Wait.LATE;
            }
            LockSupport.parkNanos(reply, left);
            if (Thread.currentThread().isInterrupted()) {
                return Wait.INTERRUPTED;
            }
        }
        return Wait.DONE; // an error reply too: the caller reads it
    }
}
