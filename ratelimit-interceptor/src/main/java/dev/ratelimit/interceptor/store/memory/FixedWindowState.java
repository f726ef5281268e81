package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Decision;

/** {@code fixed_window.lua} in process: the window opens with the first request; denied requests are counted too. */
final class FixedWindowState implements CounterState {

    private long start;
    private long count;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision acquire(long now, long limit, long window) {
        // A window stays open though refunds brought its count back to 0, as its Redis hash does.
        if (!open(now, window)) {
            start = now;
            count = 0;
            expiresAt = now + window;
        }
        count++;
        long reset = start + window - now;
        if (count <= limit) {
            long remaining = limit - count;
            return new Decision(true, limit, remaining, remaining > 0 ? 0 : reset, reset, now);
        }
        return new Decision(false, limit, 0, reset, reset, now);
    }

    @Override
    public boolean refund(long now, long reservedAt, long limit, long window) {
        long admitted = Math.min(count, limit);
        if (!open(now, window) || reservedAt < start || admitted < 1) {
            return false;
        }
        count = admitted - 1;
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
