package dev.ratelimit.interceptor.store.batch;

import dev.ratelimit.interceptor.RedisBackgroundWork;
import dev.ratelimit.interceptor.stats.PeriodicRedisWrite;

/**
 * Gives back, on a thread of its own, the permits hot counters hold past their time, every
 * {@link #TICK_MILLIS}; the permits of a counter an operator reset; and all of them when the app stops,
 * before the limiter's connection closes, so that the other instances can use them at once. It keeps the
 * batches of the store it is given ({@link #keep}), which the store's own bean builds.
 */
public final class BatchUpkeep extends RedisBackgroundWork {

    /** A small part of the longest hold, so that permits go back soon after it. */
    static final long TICK_MILLIS = 25;

    private final PeriodicRedisWrite sweeps = new PeriodicRedisWrite("hot key permits",
            "unused permits may be held past their time", this::giveBackExpired);
    private volatile BatchingRateLimitStore store;

    public void keep(BatchingRateLimitStore batching) {
        this.store = batching;
    }

    /** Gives back what this instance holds of a counter: an operator reset it, and its permits are void. */
    public void counterReset(String key) {
        BatchingRateLimitStore batching = store;
        if (batching != null) {
            batching.giveBack(key);
        }
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
