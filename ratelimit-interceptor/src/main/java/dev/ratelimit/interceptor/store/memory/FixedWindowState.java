package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;

/**
 * {@code fixed_window.lua} in process: the window opens with the first request, or, for a calendar
 * quota, is the calendar period that holds now. Denied requests are counted too once it is full; a
 * request too heavy for the room left takes none of it.
 */
final class FixedWindowState implements CounterState {

    private long start;
    private long count;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision decide(long now, CounterRequest request, boolean admit) {
        if (!admit) {
            return peek(now, request);
        }
        long limit = request.count();
        long cost = request.cost();
        // A window stays open though refunds brought its count back to 0, as its Redis hash does.
        if (!open(now, request)) {
            long[] period = request.calendar() == null ? null : request.calendar().periodOf(now);
            start = period == null ? now : period[0];
            expiresAt = period == null ? now + request.windowMillis() : period[1];
            count = 0;
        }
        long before = count;
        count += cost;
        long reset = end(now, request) - now;
        if (count <= limit) {
            long remaining = limit - count;
            return new Decision(true, limit, remaining, remaining >= cost ? 0 : reset, reset, now);
        }
        if (before < limit) {
            count = before; // too heavy for the room left: it takes none of it
        }
        return new Decision(false, limit, Math.max(0, limit - before), reset, reset, now);
    }

    /** As the script peeks: the units used in the open window, none if it is over. */
    @Override
    public Decision peek(long now, CounterRequest request) {
        long used = open(now, request) ? count : 0;
        long reset = used > 0 ? end(now, request) - now : 0;
        boolean fits = used + request.cost() <= request.count();
        return new Decision(fits, request.count(), Math.max(0, request.count() - used), fits ? 0 : reset, reset, now);
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request) {
        long admitted = Math.min(count, request.count());
        if (!open(now, request) || reservedAt < start || admitted < 1) {
            return false;
        }
        count = Math.max(0, admitted - request.cost());
        return true;
    }

    /** Whether the window opened still counts at {@code now}: within its length, or in the same calendar period. */
    private boolean open(long now, CounterRequest request) {
        if (expiresAt == Long.MIN_VALUE) {
            return false;
        }
        return request.calendar() == null ? now - start < request.windowMillis()
                : start == request.calendar().periodOf(now)[0];
    }

    /** When the open window ends, by the request's own window, as the script reckons it. */
    private long end(long now, CounterRequest request) {
        return request.calendar() == null ? start + request.windowMillis() : request.calendar().periodOf(now)[1];
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
