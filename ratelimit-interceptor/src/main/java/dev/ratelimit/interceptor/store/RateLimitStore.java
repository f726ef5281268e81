package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.util.List;
import java.util.Set;

/**
 * Where counters live and decisions are made. One call decides every limit of one request, so a
 * remote store can send them together.
 */
public interface RateLimitStore {

    /**
     * Counts one request against each counter and decides.
     *
     * @return one decision per request, in the same order
     * @throws RuntimeException when the store cannot answer; the caller applies the failure policy
     */
    List<Decision> acquire(List<CounterRequest> requests);

    /** The algorithms this store implements; a rule with another fails the start. */
    Set<Algorithm> supportedAlgorithms();
}
