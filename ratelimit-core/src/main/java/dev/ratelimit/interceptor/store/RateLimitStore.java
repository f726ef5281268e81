package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where counters live and decisions are made. One call decides every limit of one request, so a
 * remote store can send them together.
 */
public interface RateLimitStore {

    /**
     * Counts one request against each counter and decides. A store that cannot decide answers
     * {@link StoreResult.NotDecided}; it never throws for an outage.
     */
    StoreResult acquire(List<CounterRequest> requests);

    /**
     * What each request would be told now, counting nothing and writing nothing: allowed if its cost
     * fits, the units free now, the wait until it fits, the time until the whole quota is back. For
     * showing a client what it has left; a decision taken on a peek is not exact, as others may come
     * between. A store that cannot answer says {@link StoreResult.NotDecided}.
     */
    StoreResult peek(List<CounterRequest> requests);

    /**
     * Gives back requests this store admitted, each to its counter, if its window is still the current
     * one. Sent once, never retried, so a refund cannot be counted twice; one that fails is lost, and
     * its request stays counted, which errs on the side of the limit. Never throws for an outage. For a
     * {@link Algorithm#CONCURRENCY} counter it releases the request's lease, whenever it was taken.
     */
    void refund(List<Refund> refunds);

    /**
     * Settles requests whose cost was an estimate ({@link CounterRequest#settled()}): what a response used
     * beyond its estimate is charged, past the limit if need be (a debt, paid off before the client is
     * admitted again), and what it did not use is given back as a refund would be. A request that held its
     * units pending ({@link CounterRequest#holdsPendingUnits()}) holds them no more, also when its response
     * used exactly what it took (a {@code countWhen} that matched): it is confirmed. Sent without waiting,
     * never retried, never throws for an outage; one that fails leaves the estimate charged (and pending). A
     * store without settlements keeps the estimates.
     */
    default void settle(List<Settlement> settlements) {
    }

    /**
     * Extends the leases of {@link Algorithm#CONCURRENCY} requests still running by their lease from now,
     * each only while it is held: a released or expired lease is never brought back. Sent without waiting,
     * never throws for an outage. A store without {@code CONCURRENCY} has nothing to renew.
     *
     * @param leases the requests as they took their leases
     */
    default void renew(List<CounterRequest> leases) {
    }

    /**
     * Forgets what this store keeps in the process of one counter, its penalty included: an operator reset it
     * (an unblock), which deletes it in Redis and is announced to every instance. A store that keeps nothing of
     * a counter in the process has nothing to forget.
     */
    default void counterReset(String counterKey) {
    }

    /**
     * Forgets what this store keeps in the process of every counter, as if the app had just started: an app's
     * tests start over ({@code RateLimitCounters} of {@code ratelimit-test}, which deletes the counters in Redis
     * itself). A store that keeps nothing of its counters in the process has nothing to forget.
     */
    default void allCountersReset() {
    }

    /** The algorithms this store implements; a rule with another fails the start. */
    Set<Algorithm> supportedAlgorithms();

    /** What this store is, for the actuator endpoint. */
    default StoreDescription describe() {
        return new StoreDescription(getClass().getName(), Map.of());
    }
}
