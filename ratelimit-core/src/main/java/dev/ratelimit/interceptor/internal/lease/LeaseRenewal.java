package dev.ratelimit.interceptor.internal.lease;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.internal.background.PeriodicRedisWrite;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.util.List;

/**
 * Renews the leases of this instance's running requests, on a thread of its own: every
 * {@link #TICK_MILLIS} it sends the store the leases due ({@link HeldLeases#due}). A lease is renewed once a
 * third of it has passed, so an instance that stalls (a long pause, a slow Redis) for up to two thirds of
 * a lease loses none, and one that died frees its slots within a lease.
 */
public final class LeaseRenewal extends RedisBackgroundWork {

    /** Often enough that even a lease of one second is renewed with a third of it to spare. */
    static final long TICK_MILLIS = 250;

    private final HeldLeases leases;
    private final RateLimitStore store;
    private final PeriodicRedisWrite renewals;

    public LeaseRenewal(HeldLeases leases, RateLimitStore store) {
        this.leases = leases;
        this.store = store;
        this.renewals = new PeriodicRedisWrite("lease renewal", "leases of running requests may expire", this::renew);
    }

    @Override
    protected void started() {
        renewals.schedule(TICK_MILLIS, TICK_MILLIS);
    }

    @Override
    protected void stopping() {
        renewals.cancel();
    }

    private void renew() {
        List<CounterRequest> due = leases.due(System.nanoTime());
        if (!due.isEmpty()) {
            store.renew(due);
        }
    }
}
