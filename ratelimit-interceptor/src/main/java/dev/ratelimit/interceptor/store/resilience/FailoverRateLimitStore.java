package dev.ratelimit.interceptor.store.resilience;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Redis while it answers, the failure policy while it does not. Each request goes to Redis while the
 * circuit is closed; a failure is counted and that request is decided by the policy at once. Once the
 * circuit is open no request waits for Redis: {@link FailurePolicy#LOCAL} decides in the in-process
 * store with the same rules, each limit divided by the number of instances so that together they stay
 * near it; {@link FailurePolicy#OPEN} and {@link FailurePolicy#CLOSED} throw
 * {@link StoreUnavailableException} for the caller to pass or refuse the request.
 */
public class FailoverRateLimitStore implements RateLimitStore {

    private final RateLimitStore redis;
    private final CircuitBreaker circuit;
    private final FailurePolicy policy;
    private final RateLimitStore local;
    private final int instances;
    private final StoreUnavailableException unavailable;

    /**
     * @param local      decides while Redis does not, in {@link FailurePolicy#LOCAL} mode; {@code null} otherwise
     * @param instances  the number of instances sharing a limit, at least 1
     * @param retryAfter when Redis will be tried again, for refused requests
     */
    public FailoverRateLimitStore(RateLimitStore redis, CircuitBreaker circuit, FailurePolicy policy,
                                  RateLimitStore local, int instances, Duration retryAfter) {
        if ((policy == FailurePolicy.LOCAL) != (local != null)) {
            throw new IllegalArgumentException("an in-process store is needed in LOCAL mode, and only then");
        }
        if (instances < 1) {
            throw new IllegalArgumentException("instances must be at least 1, was " + instances);
        }
        this.redis = redis;
        this.circuit = circuit;
        this.policy = policy;
        this.local = local;
        this.instances = instances;
        this.unavailable = new StoreUnavailableException(policy, retryAfter);
    }

    @Override
    public List<Decision> acquire(List<CounterRequest> requests) {
        if (circuit.isClosed()) {
            try {
                List<Decision> decisions = redis.acquire(requests);
                circuit.recordSuccess();
                return decisions;
            } catch (RuntimeException e) {
                circuit.recordFailure(e);
            }
        }
        if (policy != FailurePolicy.LOCAL) {
            throw unavailable;
        }
        return local.acquire(instances == 1 ? requests : shares(requests));
    }

    /** Only what both stores can decide: a rule must keep working when it falls back. */
    @Override
    public Set<Algorithm> supportedAlgorithms() {
        if (local == null) {
            return redis.supportedAlgorithms();
        }
        Set<Algorithm> both = EnumSet.noneOf(Algorithm.class);
        both.addAll(redis.supportedAlgorithms());
        both.retainAll(local.supportedAlgorithms());
        return both;
    }

    public FailurePolicy policy() {
        return policy;
    }

    /** This instance's share of each limit, at least 1. */
    private List<CounterRequest> shares(List<CounterRequest> requests) {
        List<CounterRequest> shares = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            shares.add(new CounterRequest(request.key(), request.algorithm(), Math.max(1, request.limit() / instances),
                    request.windowMillis()));
        }
        return shares;
    }
}
