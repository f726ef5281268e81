package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.util.List;
import java.util.Set;

/**
 * A store in front of another that answers some requests itself: everything but the decisions goes to the
 * other store as it is, and what this one is, is told beside what the other is.
 */
public abstract class ForwardingRateLimitStore implements RateLimitStore {

    protected final RateLimitStore delegate;

    protected ForwardingRateLimitStore(RateLimitStore delegate) {
        this.delegate = delegate;
    }

    /** Asks the other store: what this one answers itself says nothing of the units left there. */
    @Override
    public StoreResult peek(List<CounterRequest> requests) {
        return delegate.peek(requests);
    }

    @Override
    public void refund(List<Refund> refunds) {
        delegate.refund(refunds);
    }

    @Override
    public void settle(List<Settlement> settlements) {
        delegate.settle(settlements);
    }

    @Override
    public void renew(List<CounterRequest> leases) {
        delegate.renew(leases);
    }

    @Override
    public void counterReset(String counterKey) {
        delegate.counterReset(counterKey);
    }

    @Override
    public void allCountersReset() {
        delegate.allCountersReset();
    }

    @Override
    public Set<Algorithm> supportedAlgorithms() {
        return delegate.supportedAlgorithms();
    }
}
