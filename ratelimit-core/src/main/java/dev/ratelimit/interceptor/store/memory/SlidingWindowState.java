package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.function.LongUnaryOperator;

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
        Windows at = at(now, window);
        long nowCurrent = at.current();
        long elapsed = now - at.index() * window;
        long weighted = at.previous() * (window - elapsed);
        boolean allowed = weighted + (nowCurrent + cost) * window <= limit * window;
        if (allowed && admit) {
            nowCurrent += cost;
            index = at.index();
            current = nowCurrent;
            previous = at.previous();
            expiresAt = (at.index() + 2) * window;
        }
        long reset = nowCurrent > 0 ? (at.index() + 2) * window - now
                : at.previous() > 0 ? (at.index() + 1) * window - now : 0;
        long remaining = Math.max(0, Math.floorDiv(limit * window - weighted, window) - nowCurrent);
        long wait = 0;
        if (remaining < cost) {
            long room = (limit - nowCurrent - cost) * window;
            wait = room < 0 ? window - elapsed + window - Math.floorDiv((limit - cost) * window, nowCurrent)
                    : window - elapsed - Math.floorDiv(room, at.previous());
        }
        return new Decision(allowed, limit, remaining, wait, reset, now);
    }

    /** A refund gives back only within the current fixed window. */
    @Override
    public boolean fitsOnceReturned(long now, CounterRequest request, LongUnaryOperator pendingSince) {
        long window = request.windowMillis();
        Windows at = at(now, window);
        long weighted = at.previous() * (window - (now - at.index() * window));
        long current = at.current() - pendingSince.applyAsLong(at.index() * window);
        return weighted + (current + request.cost()) * window <= request.count() * window;
    }

    /** The two windows as they are at {@code now}: this state's, or moved on to the window of now. */
    private Windows at(long now, long window) {
        long nowIndex = Math.floorDiv(now, window);
        if (index == nowIndex) {
            return new Windows(nowIndex, current, previous);
        }
        return new Windows(nowIndex, 0, index == nowIndex - 1 ? current : 0);
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone) {
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

    /** The current window's number, its count and the previous window's. */
    private record Windows(long index, long current, long previous) {
    }
}
