package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.function.LongUnaryOperator;

/**
 * {@code sliding_log.lua} in process: the times of the admitted requests of the last window, oldest
 * first, in a ring that grows as needed (to at most the limit).
 */
final class SlidingLogState implements CounterState {

    private static final int INITIAL_CAPACITY = 4;

    private long[] times = new long[INITIAL_CAPACITY];
    private int head;
    private int size;
    private long expiresAt = Long.MIN_VALUE;

    @Override
    public Decision decide(long now, CounterRequest request, boolean admit) {
        long limit = request.count();
        long window = request.windowMillis();
        long cost = request.cost();
        while (size > 0 && times[head] <= now - window) {
            head = (head + 1) % times.length;
            size--;
        }
        boolean allowed = size + cost <= limit;
        if (allowed && admit) {
            for (long i = 0; i < cost; i++) {
                append(now);
            }
            expiresAt = now + window;
        }
        long remaining = limit - size;
        long wait = 0;
        long reset = 0;
        if (size > 0) {
            reset = time(size - 1) + window - now;
            if (remaining < cost) {
                wait = time((int) (size + cost - limit - 1)) + window - now;
            }
        }
        return new Decision(allowed, limit, Math.max(0, remaining), wait, reset, now);
    }

    /** A refund gives back only entries still in the log: the denial dropped those that left it. */
    @Override
    public boolean fitsOnceReturned(long now, CounterRequest request, LongUnaryOperator pendingSince) {
        return size - pendingSince.applyAsLong(now - request.windowMillis() + 1) + request.cost() <= request.count();
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone) {
        long window = request.windowMillis();
        long cost = request.cost();
        if (reservedAt <= now - window) {
            return false;
        }
        boolean refunded = false;
        for (long n = 0; n < cost && remove(reservedAt); n++) {
            refunded = true;
        }
        return refunded;
    }

    /** Removes one entry of {@code time}, keeping the order of the others. */
    private boolean remove(long time) {
        for (int i = 0; i < size; i++) {
            if (time(i) == time) {
                for (int j = i; j < size - 1; j++) {
                    times[(head + j) % times.length] = time(j + 1);
                }
                size--;
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }

    private long time(int index) {
        return times[(head + index) % times.length];
    }

    private void append(long time) {
        if (size == times.length) {
            long[] grown = new long[times.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = time(i);
            }
            times = grown;
            head = 0;
        }
        times[(head + size) % times.length] = time;
        size++;
    }
}
