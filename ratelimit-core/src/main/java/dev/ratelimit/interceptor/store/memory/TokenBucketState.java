package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.function.LongUnaryOperator;

/**
 * {@code token_bucket.lua} in process: GCRA, with the theoretical arrival time kept exactly as
 * {@code ms + rest / limit} milliseconds, integers only.
 */
final class TokenBucketState implements CounterState {

    private ArrivalTime tat = new ArrivalTime(Long.MIN_VALUE, 0);

    @Override
    public Decision decide(long now, CounterRequest request, boolean admit) {
        long limit = request.count();
        long window = request.windowMillis();
        long cost = request.cost();
        ArrivalTime interval = new ArrivalTime(window / limit, window % limit).times(cost, limit);
        ArrivalTime base = arrival(now, limit);
        ArrivalTime next = base.plus(interval, limit);
        long ahead = next.ms() - now;
        boolean allowed = ahead < window || (ahead == window && next.rest() == 0);
        if (allowed && admit) {
            base = next;
            tat = next;
            next = base.plus(interval, limit);
        }
        long remaining = Math.floorDiv((window - (base.ms() - now)) * limit - base.rest(), window);
        long wait = 0;
        remaining = Math.max(0, remaining);
        if (remaining < cost) {
            wait = next.millisFrom(now) - window;
        }
        return new Decision(allowed, limit, remaining, wait, Math.max(0, base.millisFrom(now)), now);
    }

    @Override
    public boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone) {
        long limit = request.count();
        long window = request.windowMillis();
        long cost = request.cost();
        if (!tat.isAfter(now) || reservedAt <= now - window) {
            return false;
        }
        ArrivalTime earlier = tat.earlier(cost, window, limit);
        tat = earlier.isAfter(now) ? earlier : new ArrivalTime(Long.MIN_VALUE, 0);
        return true;
    }

    /** A refund moves the arrival time back, never before now, for a request of the last window. */
    @Override
    public boolean fitsOnceReturned(long now, CounterRequest request, LongUnaryOperator pendingSince) {
        long limit = request.count();
        long window = request.windowMillis();
        ArrivalTime back = arrival(now, limit).earlier(pendingSince.applyAsLong(now - window + 1), window, limit);
        ArrivalTime next = (back.isAfter(now) ? back : new ArrivalTime(now, 0))
                .plus(new ArrivalTime(window / limit, window % limit).times(request.cost(), limit), limit);
        long ahead = next.ms() - now;
        return ahead < window || (ahead == window && next.rest() == 0);
    }

    /** As {@code token_bucket_charge.lua}: the arrival time moves on by {@code units} intervals, past the burst if need be. */
    @Override
    public void charge(long now, CounterRequest request, long units) {
        long limit = request.count();
        long window = request.windowMillis();
        tat = arrival(now, limit).plus(new ArrivalTime(window / limit, window % limit).times(units, limit), limit);
    }

    /** The arrival time stored, or now for a full bucket. */
    private ArrivalTime arrival(long now, long limit) {
        ArrivalTime stored = tat.roundedUpBelow(limit);
        return stored.isAfter(now) ? stored : new ArrivalTime(now, 0);
    }

    @Override
    public boolean expiredAt(long now) {
        return !tat.isAfter(now);
    }

    /** {@code ms + rest / limit} milliseconds. */
    private record ArrivalTime(long ms, long rest) {

        /** {@code n} times this duration; {@code n * rest} stays below 2^53 (n is what a limit pays off in a year at most). */
        ArrivalTime times(long n, long limit) {
            long rests = rest * n;
            return new ArrivalTime(ms * n + rests / limit, rests % limit);
        }

        /** This time {@code units} intervals of {@code window / limit} earlier; {@code units * (window % limit)} stays below 2^53. */
        ArrivalTime earlier(long units, long window, long limit) {
            long rests = rest - (window % limit) * units;
            return new ArrivalTime(ms - (window / limit) * units + Math.floorDiv(rests, limit), Math.floorMod(rests, limit));
        }

        ArrivalTime plus(ArrivalTime other, long limit) {
            long sum = rest + other.rest;
            return sum >= limit ? new ArrivalTime(ms + other.ms + 1, sum - limit) : new ArrivalTime(ms + other.ms, sum);
        }

        /** A time written under a smaller limit is rounded up, never in the client's favour. */
        ArrivalTime roundedUpBelow(long limit) {
            return rest >= limit ? new ArrivalTime(ms + 1, 0) : this;
        }

        boolean isAfter(long now) {
            return ms > now || (ms == now && rest > 0);
        }

        /** Whole milliseconds from {@code now}, rounded up. */
        long millisFrom(long now) {
            return ms - now + (rest > 0 ? 1 : 0);
        }
    }
}
