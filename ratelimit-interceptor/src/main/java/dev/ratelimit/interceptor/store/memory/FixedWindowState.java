package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Decision;

/** {@code fixed_window.lua} in process: the window opens with the first request; denied requests are counted too. */
final class FixedWindowState implements CounterState {

    private long start;
    private long count;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision acquire(long now, long limit, long window, long cost) {
        // A window stays open though refunds brought its count back to 0, as its Redis hash does.
        if (!open(now, window)) {
            start = now;
            count = 0;
            expiresAt = now + window;
        }
        long before = count;
        count += cost;
        long reset = start + window - now;
        if (count <= limit) {
            long remaining = limit - count;
            return new Decision(true, limit, remaining, remaining >= cost ? 0 : reset, reset, now);
        }
        if (before < limit) {
            count = before; // too heavy for the room left: it takes none of it
        }
        return new Decision(false, limit, Math.max(0, limit - before), reset, reset, now);
    }

    @Override
    public boolean refund(long now, long reservedAt, long limit, long window, long cost) {
        long admitted = Math.min(count, limit);
        if (!open(now, window) || reservedAt < start || admitted < 1) {
            return false;
        }
        count = Math.max(0, admitted - cost);
        return true;
    }

    private boolean open(long now, long window) {
        return expiresAt != Long.MIN_VALUE && now - start < window;
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
