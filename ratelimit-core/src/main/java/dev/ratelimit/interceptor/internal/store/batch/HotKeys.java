package dev.ratelimit.interceptor.internal.store.batch;

import org.jspecify.annotations.Nullable;

/**
 * Which counters this instance asks for often: an estimate of each key's rate, in a fixed table of slots
 * (so a flood of new keys costs no memory), counted over ticks of {@link #TICK_NANOS}. A slot counts the
 * first key that reaches it in a tick; a key that collides with another in a tick is not counted in it, which
 * only delays its detection. A key is hot once it reaches {@code threshold} requests per second within a
 * tick.
 */
final class HotKeys {

    static final long TICK_NANOS = 100_000_000L;
    private static final int SLOTS = 4096;

    private final Slot[] slots = new Slot[SLOTS];
    private final long perTick;

    /** @param threshold requests per second on this instance from which a key is hot */
    HotKeys(long threshold) {
        this.perTick = Math.max(1, (threshold * TICK_NANOS + 999_999_999L) / 1_000_000_000L);
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot();
        }
    }

    /** The requests in one tick that make a key hot: what a counter found hot has seen in the tick before. */
    long perTick() {
        return perTick;
    }

    /** Counts one request of {@code key} at {@code nowNanos}: whether the key is hot now. */
    boolean hit(String key, long nowNanos) {
        int hash = key.hashCode();
        Slot slot = slots[(hash ^ (hash >>> 16)) & (SLOTS - 1)];
        long tick = nowNanos / TICK_NANOS;
        synchronized (slot) {
            if (slot.tick != tick) {
                slot.tick = tick;
                slot.key = key;
                slot.count = 0;
            } else if (!key.equals(slot.key)) {
                return false;
            }
            return ++slot.count >= perTick;
        }
    }

    private static final class Slot {
        long tick = Long.MIN_VALUE;
        @Nullable String key;
        long count;
    }
}
