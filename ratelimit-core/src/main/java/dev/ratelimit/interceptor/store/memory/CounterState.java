package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Refund;
import java.util.function.LongUnaryOperator;

/**
 * The state of one counter in process: the Java twin of an algorithm's Lua script, with the same
 * integer arithmetic so that both stores give the same decisions for the same times. Not thread-safe:
 * the store only touches a state under its map's lock for that key.
 */
sealed interface CounterState permits FixedWindowState, SlidingWindowState, SlidingLogState, TokenBucketState,
        ConcurrencyState {

    /** When a running request ends is unknown: a denial that its end could undo tells this wait, or less. */
    long UNTIL_A_REQUEST_ENDS_MILLIS = 1000;

    /** Counts the request's cost at {@code now} (ms) against its limit per window. */
    default Decision acquire(long now, CounterRequest request) {
        return decide(now, request, true);
    }

    /**
     * What a request of this cost would be told at {@code now}, changing nothing, as the script does when
     * it peeks: allowed if it fits, the units free now, the wait until it fits.
     */
    default Decision peek(long now, CounterRequest request) {
        return decide(now, request, false);
    }

    /** The algorithm: decides the request at {@code now}, and counts it if admitted and {@code admit}. */
    Decision decide(long now, CounterRequest request, boolean admit);

    /**
     * Whether the request this state just denied at {@code now} would fit once the units pending of the
     * requests still running came back, as far as a refund could still give them back; then the denial is not
     * final, as {@code final} in {@code counter_head.lua} says. {@code pendingSince} gives the units pending that
     * were reserved at a time or later. A concurrency limit's leases are requests running, none pending.
     */
    default boolean fitsOnceReturned(long now, CounterRequest request, LongUnaryOperator pendingSince) {
        return false;
    }

    /**
     * Gives back the request's cost, which this state admitted at {@code reservedAt}, as the algorithm's
     * refund script does; {@code false} when there is nothing to give back (its window is over). A fixed window
     * tells {@code undone} the counts it undid, as its script answers them.
     */
    boolean refund(long now, long reservedAt, CounterRequest request, Refund.Undone undone);

    /**
     * Charges the request {@code units} more than its estimate, past the limit if need be, as the
     * algorithm's charge script does. Only the fixed window and the token bucket settle costs.
     */
    default void charge(long now, CounterRequest request, long units) {
        throw new UnsupportedOperationException(request.algorithm() + " does not settle costs");
    }

    /**
     * Extends the request's lease by its window from {@code now} while it is live, as {@code concurrency_renew.lua}
     * does; {@code false} when there is none to extend. Only {@link ConcurrencyState} holds leases.
     */
    default boolean renew(long now, CounterRequest request) {
        return false;
    }

    /**
     * Whether the state is as good as absent at {@code now}: the moment its Redis key's TTL would end.
     * A state is never expired while it could still change a decision.
     */
    boolean expiredAt(long now);

    /** A new state for the request's algorithm. */
    static CounterState create(CounterRequest request) {
        return switch (request.algorithm()) {
            case FIXED_WINDOW -> new FixedWindowState();
            case SLIDING_WINDOW -> new SlidingWindowState();
            case SLIDING_LOG -> new SlidingLogState();
            case TOKEN_BUCKET -> new TokenBucketState();
            case CONCURRENCY -> new ConcurrencyState();
        };
    }
}
