package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Decision;

/** {@code fixed_window.lua} in process: the window opens with the first request; denied requests are counted too. */
final class FixedWindowState implements CounterState {

    private long start;
    private long count;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision acquire(long now, long limit, long window) {
        if (count > 0 && now - start >= window) {
            count = 0;
        }
        if (count++ == 0) {
            start = now;
            expiresAt = now + window;
        }
        long reset = start + window - now;
        if (count <= limit) {
            long remaining = limit - count;
            return new Decision(true, limit, remaining, remaining > 0 ? 0 : reset, reset);
        }
        return new Decision(false, limit, 0, reset, reset);
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
