package dev.ratelimit.interceptor.internal.store.batch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * One hot counter of this instance: its batch of permits, if any, and the rate that sizes the next one.
 * One request at a time asks for the next batch ({@link #startAsking}), while the others go on taking
 * permits from the batch, or, once it is empty, wait for the next ({@link #awaitBatch}).
 */
final class HotCounter {

    final AtomicReference<PermitBatch> batch = new AtomicReference<>();
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile CompletableFuture<Boolean> arrival = CompletableFuture.completedFuture(true);
    private final LongAdder seen = new LongAdder();
    private volatile long askedAtNanos;
    private volatile long lastSeenNanos;
    private volatile long lastBatch;
    private volatile boolean retired;

    HotCounter(long nowNanos, long seenBefore) {
        this.askedAtNanos = nowNanos - HotKeys.TICK_NANOS;
        this.lastSeenNanos = nowNanos;
        seen.add(seenBefore);
    }

    void seen(long nowNanos) {
        seen.increment();
        lastSeenNanos = nowNanos;
    }

    /** Whether no request came for {@code quietNanos}. */
    boolean quietFor(long quietNanos, long nowNanos) {
        return nowNanos - lastSeenNanos > quietNanos;
    }

    /** Whether {@code left} permits are too few to cover the time the next batch takes to come: half the last or less. */
    boolean low(long left) {
        return left * 2 <= lastBatch;
    }

    /** The permits the last batch brought. */
    void took(long units) {
        lastBatch = units;
    }

    /**
     * No longer in use: forgotten by the store, so a batch it takes from now on must go back at once, as no
     * sweep would find it.
     */
    void retire() {
        retired = true;
    }

    boolean retired() {
        return retired;
    }

    /** Whether this request is the one to ask for the next batch; then {@link #asked} must follow. */
    boolean startAsking() {
        if (!asking.compareAndSet(false, true)) {
            return false;
        }
        arrival = new CompletableFuture<>();
        return true;
    }

    /**
     * The ask is over, and what it brought taken: the requests waiting for it go on. {@code answered} is whether
     * the store decided it; when it did not (Redis failing), they do not ask again.
     */
    void asked(boolean answered) {
        CompletableFuture<Boolean> over = arrival;
        asking.set(false);
        over.complete(answered);
    }

    boolean asking() {
        return asking.get();
    }

    /**
     * Waits for the batch asked for now, if any: no longer than the store takes to answer the request that
     * asked, and a wait this request would spend on a call of its own otherwise. Whether the store answered it
     * (or no ask was under way).
     */
    boolean awaitBatch() {
        return !asking.get() || arrival.join();
    }

    /**
     * The permits to ask for: what this instance's requests on the counter used in {@code batchForNanos} at
     * their rate since the last ask; 0 once that rate is under {@code threshold} per second, the counter cooled.
     */
    long nextBatch(long nowNanos, long batchForNanos, long threshold) {
        long elapsed = Math.max(1, nowNanos - askedAtNanos);
        long requests = seen.sumThenReset();
        askedAtNanos = nowNanos;
        if (requests * 1_000_000_000L / elapsed < threshold) {
            return 0;
        }
        return Math.max(1, (long) Math.ceil((double) requests * batchForNanos / elapsed));
    }
}
