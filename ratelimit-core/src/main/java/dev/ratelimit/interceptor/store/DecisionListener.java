package dev.ratelimit.interceptor.store;

/**
 * Receives every decision Redis makes, also those of requests that had stopped waiting for them (Redis
 * was judged silent or too slow and the failure policy decided those requests): the counters in Redis
 * counted them all, so what Redis said is worth knowing either way. Called on Lettuce's I/O thread or
 * the request's: an implementation must only take note.
 */
@FunctionalInterface
public interface DecisionListener {

    /** Ignores them. */
    DecisionListener IGNORE = (request, decision, sentAtNanos) -> { };

    /** @param sentAtNanos {@link System#nanoTime()} when the request was sent to Redis */
    void decided(CounterRequest request, Decision decision, long sentAtNanos);
}
