package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Batch;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.function.LongUnaryOperator;

/**
 * {@code fixed_window.lua} in process: the window opens with the first request, or, for a calendar
 * quota, is the calendar period that holds now. Denied requests are counted too once it is full; a
 * request too heavy for the room left takes none of it. A limit whose cost is settled after the response
 * counts no denied request and may end a window in debt, which the windows after it pay off.
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
        openAt(now, request);
        long before = count;
        count += cost;
        long reset = paidOff(start, count, request) - now;
        if (count <= limit) {
            long remaining = limit - count;
            return new Decision(true, limit, remaining, remaining >= cost ? 0 : reset, reset, now, Batch.NONE, count);
        }
        long demand = count;
        if (before < limit || request.settled()) {
            count = before; // too heavy for the room left, or settled: it takes none of it
            demand = 0;
        }
        return new Decision(false, limit, Math.max(0, limit - before), admitsAt(start, before, request) - now,
                paidOff(start, before, request) - now, now, Batch.NONE, demand);
    }

    /**
     * The units admitted in the window open now: the count beyond the limit is denied requests, but a settled
     * limit's debt. A refund gives back only within this window.
     */
    @Override
    public boolean fitsOnceReturned(long now, CounterRequest request, LongUnaryOperator pendingSince) {
        long admitted = request.settled() ? count : Math.min(count, request.count());
        return admitted - pendingSince.applyAsLong(start) + request.cost() <= request.count();
    }

    /** As the script peeks: the units used in the window open now (a debt carried into it), none if there is none. */
    @Override
    public Decision peek(long now, CounterRequest request) {
        long openedAt = start;
        long used = 0;
        if (open(now, request)) {
            used = count;
        } else if (carries(now, request)) {
            openedAt = start + passed(now, request) * request.windowMillis();
            used = count - passed(now, request) * request.count();
        }
        long reset = used > 0 ? paidOff(openedAt, used, request) - now : 0;
        boolean fits = used + request.cost() <= request.count();
        return new Decision(fits, request.count(), Math.max(0, request.count() - used),
                fits ? 0 : admitsAt(openedAt, used, request) - now, reset, now);
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone) {
        long admitted = request.settled() ? count : Math.min(count, request.count());
        if (!open(now, request) || reservedAt < start || admitted < 1) {
            return false;
        }
        long counted = count;
        count = Math.max(0, admitted - request.cost());
        undone.counts(count, counted);
        return true;
    }

    /** As {@code fixed_window_charge.lua}: to the window open now, past the limit if need be. */
    @Override
    public void charge(long now, CounterRequest request, long units) {
        openAt(now, request);
        count += units;
        expiresAt = Math.max(expiresAt, paidOff(start, count, request));
    }

    /** Brings the state to the window open at {@code now}: the same, one its debt carried into, or a new one. */
    private void openAt(long now, CounterRequest request) {
        // A window stays open though refunds brought its count back to 0, as its Redis hash does.
        if (open(now, request)) {
            return;
        }
        if (carries(now, request)) {
            long passed = passed(now, request);
            start += passed * request.windowMillis();
            count -= passed * request.count();
            return;
        }
        long[] period = request.calendar() == null ? null : request.calendar().periodOf(now);
        start = period == null ? now : period[0];
        expiresAt = period == null ? now + request.windowMillis() : period[1];
        count = 0;
    }

    /** Whether the window opened still counts at {@code now}: within its length, or in the same calendar period. */
    private boolean open(long now, CounterRequest request) {
        if (expiresAt == Long.MIN_VALUE) {
            return false;
        }
        return request.calendar() == null ? now - start < request.windowMillis()
                : start == request.calendar().periodOf(now)[0];
    }

    /** Whether a window that is over left a debt that the window open at {@code now} still pays off. */
    private boolean carries(long now, CounterRequest request) {
        return request.settled() && expiresAt != Long.MIN_VALUE && count > passed(now, request) * request.count();
    }

    /** The whole windows since the open one started. */
    private long passed(long now, CounterRequest request) {
        return (now - start) / request.windowMillis();
    }

    /**
     * When {@code units} counted in the window opened at {@code openedAt} are paid off, as the script reckons
     * it: the window's end, or for a debt the end of the window that pays off its last unit.
     */
    private static long paidOff(long openedAt, long units, CounterRequest request) {
        if (request.calendar() != null) {
            return request.calendar().periodOf(openedAt)[1];
        }
        long windows = request.settled() ? Math.max(1, ceilDiv(units, request.count())) : 1;
        return openedAt + windows * request.windowMillis();
    }

    /** When a request of its cost fits beside {@code units}: once the window ends, or once enough debt is paid off. */
    private static long admitsAt(long openedAt, long units, CounterRequest request) {
        if (!request.settled()) {
            return paidOff(openedAt, units, request);
        }
        return openedAt + ceilDiv(units + request.cost() - request.count(), request.count()) * request.windowMillis();
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }

    private static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
