package dev.ratelimit.interceptor.internal.store.batch;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.internal.background.PeriodicRedisWrite;
import org.jspecify.annotations.Nullable;

/**
 * The permits of hot counters this instance holds ({@link BatchingRateLimitStore}, which the store's own bean
 * builds and hands over by {@link #keep}): given back on a thread of its own once held past their time,
 * checked every {@link #TICK_MILLIS}; all given back when
 * the app stops, before the limiter's connection closes, so that the other instances can use them at once.
 * Counted for the heartbeat.
 */
public final class HeldPermits extends RedisBackgroundWork {

    /** A small part of the longest hold, so that permits go back soon after it. */
    static final long TICK_MILLIS = 25;

    private final PeriodicRedisWrite sweeps = new PeriodicRedisWrite("hot key permits",
            "unused permits may be held past their time", this::giveBackExpired);
    private volatile @Nullable BatchingRateLimitStore store;

    public void keep(BatchingRateLimitStore batching) {
        this.store = batching;
    }

    /** The counters batched here now. */
    public int counters() {
        BatchingRateLimitStore batching = store;
        return batching == null ? 0 : batching.batchedCounters();
    }

    /** The permits held here now, not used yet. */
    public long permits() {
        BatchingRateLimitStore batching = store;
        return batching == null ? 0 : batching.permitsHeld();
    }

    @Override
    protected void started() {
        sweeps.schedule(TICK_MILLIS, TICK_MILLIS);
    }

    @Override
    protected void stopping() {
        sweeps.cancel();
        BatchingRateLimitStore batching = store;
        if (batching != null) {
            batching.giveBackAll();
        }
    }

    private void giveBackExpired() {
        BatchingRateLimitStore batching = store;
        if (batching != null) {
            batching.giveBackExpired();
        }
    }
}
