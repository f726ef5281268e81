package dev.ratelimit.interceptor.internal.store.resilience;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.FailurePolicy;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.Refund;
import dev.ratelimit.interceptor.store.Settlement;
import dev.ratelimit.interceptor.store.StoreDescription;
import dev.ratelimit.interceptor.store.StoreResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Redis while it answers, the failure policy while it does not: the one place where the policy is
 * applied. While the circuit is closed every request goes to Redis and is decided on its word; when
 * Redis does not decide (an error, or judged silent or too slow) the failure is counted and the policy
 * decides that request at once. Once the circuit is open no request waits for Redis.
 * {@link FailurePolicy#LOCAL} decides in the in-process store with the same rules, each limit divided by
 * the number of instances so that together they stay near it; {@link FailurePolicy#OPEN} lets the
 * request pass and {@link FailurePolicy#CLOSED} refuses it, both as {@link StoreResult.NotDecided}.
 */
public class FailoverRateLimitStore implements RateLimitStore {

    private final RateLimitStore redis;
    private final CircuitBreaker circuit;
    private final FailurePolicy policy;
    private final @Nullable RateLimitStore local;
    private final int instances;
    private final Duration retryAfter;

    /**
     * @param local      decides while Redis does not, in {@link FailurePolicy#LOCAL} mode; {@code null} otherwise
     * @param instances  the number of instances sharing a limit, at least 1
     * @param retryAfter when Redis will be tried again, for refused requests
     */
    public FailoverRateLimitStore(RateLimitStore redis, CircuitBreaker circuit, FailurePolicy policy,
                                  @Nullable RateLimitStore local, int instances, Duration retryAfter) {
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
        this.retryAfter = retryAfter;
    }

    @Override
    public StoreResult acquire(List<CounterRequest> requests) {
        String failure = "the circuit is open";
        if (circuit.isClosed()) {
            StoreResult result = redis.acquire(requests);
            if (result instanceof StoreResult.Decided) {
                circuit.recordSuccess();
                return result;
            }
            failure = ((StoreResult.NotDecided) result).reason();
            circuit.recordFailure(failure);
        }
        return switch (policy) {
            // The constructor checked that LOCAL mode has its store.
            case LOCAL -> Objects.requireNonNull(local).acquire(instances == 1 ? requests : shares(requests));
            case OPEN -> StoreResult.NotDecided.pass(failure);
            case CLOSED -> StoreResult.NotDecided.refuse(failure, retryAfter);
        };
    }

    /** From the store that decides now; while Redis is away, this instance's share in process, if kept. */
    @Override
    public StoreResult peek(List<CounterRequest> requests) {
        if (circuit.isClosed()) {
            return redis.peek(requests);
        }
        return local != null ? local.peek(instances == 1 ? requests : shares(requests))
                : StoreResult.NotDecided.pass("the circuit is open");
    }

    /**
     * To the store that decides now: the one that decided the refunded requests, but for those decided
     * just before the circuit changed state, whose refunds are lost (the in-process counters start from
     * nothing anyway) or go to Redis (the request went uncounted there, so the refund frees a unit another
     * request took: one request more, once, at a change of state).
     */
    @Override
    public void refund(List<Refund> refunds) {
        if (circuit.isClosed()) {
            redis.refund(refunds);
        } else if (local != null) {
            local.refund(instances == 1 ? refunds : refunds.stream()
                    .map(refund -> new Refund(share(refund.request()), refund.reservedAt())).toList());
        }
    }

    /** To the store that decides now, as refunds go. */
    @Override
    public void settle(List<Settlement> settlements) {
        if (circuit.isClosed()) {
            redis.settle(settlements);
        } else if (local != null) {
            local.settle(instances == 1 ? settlements : settlements.stream()
                    .map(settlement -> new Settlement(share(settlement.request()), settlement.reservedAt(),
                            settlement.units())).toList());
        }
    }

    /**
     * To the store that decides now, as refunds go: a lease the other store granted is not there, so it is
     * left to expire there (Redis' counters are Redis' alone again once it answers).
     */
    @Override
    public void renew(List<CounterRequest> leases) {
        if (circuit.isClosed()) {
            redis.renew(leases);
        } else if (local != null) {
            local.renew(leases);
        }
    }

    /** To both stores: a client an operator freed is free in process too, now and at the next outage. */
    @Override
    public void counterReset(String counterKey) {
        redis.counterReset(counterKey);
        if (local != null) {
            local.counterReset(counterKey);
        }
    }

    /** Both stores: the counters kept in process during an outage are counters too. */
    @Override
    public void allCountersReset() {
        redis.allCountersReset();
        if (local != null) {
            local.allCountersReset();
        }
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

    @Override
    public StoreDescription describe() {
        CircuitBreaker.Status status = circuit.status();
        Map<String, Object> circuitState = new LinkedHashMap<>();
        circuitState.put("state", lower(status.state().name()));
        circuitState.put("since", status.since().toString());
        circuitState.put("consecutiveFailures", circuit.consecutiveFailures());
        if (status.lastFailure() != null) {
            circuitState.put("lastFailure", status.lastFailure());
        }
        StoreDescription description = redis.describe()
                .with("circuit", circuitState)
                .with("failurePolicy", lower(policy.name()))
                .with("instances", instances);
        return local == null ? description : description.with("whileOpen", local.describe().details());
    }

    public FailurePolicy policy() {
        return policy;
    }

    /** This instance's share of each limit, at least 1. */
    private List<CounterRequest> shares(List<CounterRequest> requests) {
        List<CounterRequest> shares = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            shares.add(share(request));
        }
        return shares;
    }

    private CounterRequest share(CounterRequest request) {
        return request.withCount(Math.max(1, request.count() / instances));
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
