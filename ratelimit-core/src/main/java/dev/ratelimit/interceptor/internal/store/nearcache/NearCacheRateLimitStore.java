package dev.ratelimit.interceptor.internal.store.nearcache;

import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.ForwardingRateLimitStore;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreDescription;
import dev.ratelimit.interceptor.store.StoreResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A store in front of another that answers the counters the {@link NearCache} knows to be denied, and
 * asks the other store only for the rest. A request whose every counter is known denied costs no call
 * at all. The cache learns from Redis itself ({@link dev.ratelimit.interceptor.store.DecisionListener}),
 * never from the in-process fallback: what it remembers is always Redis' word, and it keeps refusing
 * the clients Redis blocked while Redis is away.
 */
public class NearCacheRateLimitStore extends ForwardingRateLimitStore {

    private final NearCache cache;

    /** Refunds, and the ends of concurrency leases, need not reach the cache: it never remembers a denial they could end. */
    public NearCacheRateLimitStore(RateLimitStore delegate, NearCache cache) {
        super(delegate);
        this.cache = cache;
    }

    @Override
    public StoreResult acquire(List<CounterRequest> requests) {
        long now = System.nanoTime();
        Decision[] known = null;
        int unknown = requests.size();
        for (int i = 0; i < requests.size(); i++) {
            Decision denial = cache.denial(requests.get(i), now);
            if (denial != null) {
                if (known == null) {
                    known = new Decision[requests.size()];
                }
                known[i] = denial;
                unknown--;
            }
        }
        if (known == null) {
            return delegate.acquire(requests);
        }
        if (unknown == 0) {
            return new StoreResult.Decided(List.of(known));
        }
        List<CounterRequest> asked = new ArrayList<>(unknown);
        for (int i = 0; i < requests.size(); i++) {
            if (known[i] == null) {
                asked.add(requests.get(i));
            }
        }
        StoreResult result = delegate.acquire(asked);
        if (!(result instanceof StoreResult.Decided decided)) {
            return result;
        }
        List<Decision> all = new ArrayList<>(requests.size());
        int next = 0;
        for (Decision decision : known) {
            all.add(decision != null ? decision : decided.decisions().get(next++));
        }
        return new StoreResult.Decided(all);
    }

    /** The denials remembered too: they are of counters that start over. */
    @Override
    public void allCountersReset() {
        cache.clear();
        delegate.allCountersReset();
    }

    @Override
    public StoreDescription describe() {
        return delegate.describe().with("nearCache", cache.describe());
    }
}
