package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code concurrency.lua} in process: the leases of the requests running now, each with when it expires;
 * at most the limit of them live at once. An expired lease stays until a request sweeps it away, as in
 * the sorted set, but counts for nothing and is never renewed.
 */
final class ConcurrencyState implements CounterState {

    /** The longest a denied request is told to wait: when a running request ends is unknown. */
    private static final long RETRY_MILLIS = 1000;

    private final Map<String, Long> expiries = new HashMap<>();

    @Override
    public Decision decide(long now, CounterRequest request, boolean admit) {
        if (admit) {
            expiries.values().removeIf(expiry -> expiry <= now);
        }
        long held = expiries.values().stream().filter(expiry -> expiry > now).count();
        boolean allowed = held < request.count();
        if (allowed && admit) {
            expiries.put(request.lease(), now + request.windowMillis());
            held++;
        }
        long remaining = request.count() - held;
        long wait = 0;
        long reset = 0;
        if (held > 0) {
            reset = expiries.values().stream().mapToLong(Long::longValue).max().orElseThrow() - now;
            if (remaining < 1) {
                long earliest = expiries.values().stream().mapToLong(Long::longValue).filter(expiry -> expiry > now)
                        .min().orElseThrow();
                wait = Math.min(RETRY_MILLIS, earliest - now);
            }
        }
        return new Decision(allowed, request.count(), Math.max(0, remaining), wait, reset, now);
    }

    /** Releases the request's lease, live or expired, as {@code ZREM} does. */
    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone) {
        return expiries.remove(request.lease()) != null;
    }

    @Override
    public boolean renew(long now, CounterRequest request) {
        Long expiry = expiries.get(request.lease());
        if (expiry == null || expiry <= now) {
            return false;
        }
        expiries.put(request.lease(), now + request.windowMillis());
        return true;
    }

    @Override
    public boolean expiredAt(long now) {
        return expiries.values().stream().allMatch(expiry -> expiry <= now);
    }
}
