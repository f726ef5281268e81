package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;

/**
 * {@code sliding_window.lua} in process: two windows aligned to multiples of the window length, the
 * previous one weighted by how much of it the sliding window still covers.
 */
final class SlidingWindowState implements CounterState {

    private long index = Long.MIN_VALUE;
    private long current;
    private long previous;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision decide(long now, CounterRequest request, boolean admit) {
        long limit = request.count();
        long window = request.windowMillis();
        long cost = request.cost();
        long nowIndex = Math.floorDiv(now, window);
        long nowCurrent = current;
        long nowPrevious = previous;
        if (index != nowIndex) {
            nowPrevious = index == nowIndex - 1 ? current : 0;
            nowCurrent = 0;
        }
        long elapsed = now - nowIndex * window;
        long weighted = nowPrevious * (window - elapsed);
        boolean allowed = weighted + (nowCurrent + cost) * window <= limit * window;
        if (allowed && admit) {
            nowCurrent += cost;
            index = nowIndex;
            current = nowCurrent;
            previous = nowPrevious;
            expiresAt = (nowIndex + 2) * window;
        }
        long reset = nowCurrent > 0 ? (nowIndex + 2) * window - now
                : nowPrevious > 0 ? (nowIndex + 1) * window - now : 0;
        long remaining = Math.max(0, Math.floorDiv(limit * window - weighted, window) - nowCurrent);
        long wait = 0;
        if (remaining < cost) {
            long room = (limit - nowCurrent - cost) * window;
            wait = room < 0 ? window - elapsed + window - Math.floorDiv((limit - cost) * window, nowCurrent)
                    : window - elapsed - Math.floorDiv(room, nowPrevious);
        }
        return new Decision(allowed, limit, remaining, wait, reset, now);
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request) {
        long window = request.windowMillis();
        long cost = request.cost();
        long reservedIndex = Math.floorDiv(reservedAt, window);
        if (reservedIndex != Math.floorDiv(now, window) || index != reservedIndex || current < 1) {
            return false;
        }
        current = Math.max(0, current - cost);
        return true;
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
