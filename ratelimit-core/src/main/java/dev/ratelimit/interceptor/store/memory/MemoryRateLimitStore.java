package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.Refund;
import dev.ratelimit.interceptor.store.Settlement;
import dev.ratelimit.interceptor.store.StoreDescription;
import dev.ratelimit.interceptor.store.StoreResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counters in this process, for single-instance apps, tests, and as the fallback when Redis is away.
 * The same algorithms as the Redis scripts with the same arithmetic, so both give the same
 * decisions for the same times. Each counter is updated under the map's lock for its key only (no
 * global lock). A counter is dropped when its Redis key's TTL would end: a sweep at most once per
 * {@link #SWEEP_INTERVAL_MILLIS} of clock time removes them. At most {@code maxKeys} counters live at
 * once: a request of a new key beyond that is decided as a fresh counter that is not kept, which admits
 * it (a flood of made-up identities must not evict the counters of real ones).
 */
public class MemoryRateLimitStore implements RateLimitStore {

    static final long SWEEP_INTERVAL_MILLIS = 1000;
    private static final Logger log = LoggerFactory.getLogger(MemoryRateLimitStore.class);

    private final Clock clock;
    private final int maxKeys;
    private final ConcurrentHashMap<String, Entry> counters = new ConcurrentHashMap<>();
    private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong untracked = new AtomicLong();

    /**
     * @param clock   the time of every decision; {@link Clock#systemUTC()} in production
     * @param maxKeys the most counters held at once
     */
    public MemoryRateLimitStore(Clock clock, int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("ratelimit.memory.max-keys must be at least 1, was " + maxKeys);
        }
        this.clock = clock;
        this.maxKeys = maxKeys;
    }

    /** Forgets every counter and penalty. */
    @Override
    public void allCountersReset() {
        counters.clear();
    }

    /** Forgets one counter and its penalty: an operator's unblock, which every instance hears announced. */
    @Override
    public void counterReset(String counterKey) {
        counters.remove(counterKey);
    }

    @Override
    public Set<Algorithm> supportedAlgorithms() {
        return EnumSet.allOf(Algorithm.class);
    }

    @Override
    public StoreResult acquire(List<CounterRequest> requests) {
        long now = clock.millis();
        sweepIfDue(now);
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            decisions.add(acquire(request, now));
        }
        return new StoreResult.Decided(decisions);
    }

    /** Reads the counters under their keys' locks, and keeps none it did not find. */
    @Override
    public StoreResult peek(List<CounterRequest> requests) {
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            Decision[] decision = new Decision[1];
            counters.computeIfPresent(request.key(), (key, entry) -> {
                long lockedNow = clock.millis();
                if (entry.algorithm() == request.algorithm() && !entry.expiredAt(lockedNow)) {
                    decision[0] = entry.peek(request, lockedNow);
                }
                return entry;
            });
            decisions.add(decision[0] != null ? decision[0]
                    : CounterState.create(request).peek(clock.millis(), request));
        }
        return new StoreResult.Decided(decisions);
    }

    @Override
    public void refund(List<Refund> refunds) {
        long now = clock.millis();
        for (Refund refund : refunds) {
            CounterRequest request = refund.request();
            counters.computeIfPresent(request.key(), (key, entry) -> {
                entry.release(request, refund.reservedAt());
                if (entry.algorithm() == request.algorithm()) {
                    entry.state().refund(now, refund.reservedAt(), request, refund.undone());
                }
                return entry;
            });
        }
    }

    /**
     * What a response did not use goes back as a refund does; what it used beyond its estimate is charged; and
     * a request that held its units pending holds them no more.
     */
    @Override
    public void settle(List<Settlement> settlements) {
        long now = clock.millis();
        for (Settlement settlement : settlements) {
            CounterRequest request = settlement.request();
            long difference = settlement.difference();
            if (difference > 0) {
                counters.compute(request.key(), (key, entry) -> {
                    Entry live = entry == null || entry.algorithm() != request.algorithm()
                            ? new Entry(request.algorithm(), CounterState.create(request), new PenaltyState()) : entry;
                    live.release(request, settlement.reservedAt());
                    live.state().charge(now, request, difference);
                    return live;
                });
                continue;
            }
            counters.computeIfPresent(request.key(), (key, entry) -> {
                entry.release(request, settlement.reservedAt());
                if (difference < 0 && entry.algorithm() == request.algorithm()) {
                    entry.state().refund(now, settlement.reservedAt(), request.withCost(-difference),
                            Refund.Undone.NONE);
                }
                return entry;
            });
        }
    }

    @Override
    public void renew(List<CounterRequest> leases) {
        long now = clock.millis();
        for (CounterRequest lease : leases) {
            counters.computeIfPresent(lease.key(), (key, entry) -> {
                if (entry.algorithm() == lease.algorithm()) {
                    entry.state().renew(now, lease);
                }
                return entry;
            });
        }
    }

    @Override
    public StoreDescription describe() {
        return new StoreDescription("memory", Map.of("counters", counters.size(), "maxKeys", maxKeys,
                "untracked", untracked.get()));
    }

    /** The number of counters held now. */
    public int size() {
        return counters.size();
    }

    private Decision acquire(CounterRequest request, long now) {
        if (counters.size() >= maxKeys && !counters.containsKey(request.key())) {
            // Not a sweep per request here: a flood of new keys would make each one cost a pass over the map.
            warnUntracked();
            return CounterState.create(request).acquire(now, request);
        }
        Decision[] decision = new Decision[1];
        counters.compute(request.key(), (key, entry) -> {
            // The time read under the key's lock: a time read before it may be older than the last
            // decision of the key, which would see a block (or a window) last longer than it does.
            long lockedNow = Math.max(now, clock.millis());
            Entry live = entry == null || entry.algorithm() != request.algorithm() || entry.expiredAt(lockedNow)
                    ? new Entry(request.algorithm(), CounterState.create(request), new PenaltyState()) : entry;
            decision[0] = live.acquire(request, lockedNow);
            return live;
        });
        return decision[0];
    }

    private void sweepIfDue(long now) {
        long due = nextSweep.get();
        if (now >= due && nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_MILLIS)) {
            sweep(now);
        }
    }

    private void sweep(long now) {
        for (String key : counters.keySet()) {
            counters.computeIfPresent(key, (k, entry) -> entry.expiredAt(now) ? null : entry);
        }
    }

    private void warnUntracked() {
        long count = untracked.incrementAndGet();
        if (Long.bitCount(count) == 1) {
            log.warn("In-process rate limit store is full ({} counters): {} requests of new keys were admitted "
                    + "without being counted so far; raise ratelimit.memory.max-keys", maxKeys, count);
        }
    }

    /** A counter, the algorithm it was made for, and its penalty. */
    private record Entry(Algorithm algorithm, CounterState state, PenaltyState penalty) {

        Decision acquire(CounterRequest request, long now) {
            if (!request.penalty().applies()) {
                return state.acquire(now, request);
            }
            Decision blocked = penalty.blocked(now, request.count());
            if (blocked != null) {
                return blocked;
            }
            Decision decision = state.acquire(now, request);
            if (!request.holdsPendingUnits()) {
                return decision.allowed() ? decision : penalty.offended(decision, now, request.penalty());
            }
            if (decision.allowed()) {
                penalty.reserved(decision, request.cost());
                return decision;
            }
            return state.fitsOnceReturned(now, request, penalty::pendingSince) ? PenaltyState.undecided(decision)
                    : penalty.offended(decision, now, request.penalty());
        }

        /** The request admitted at {@code reservedAt} holds its units pending no more, if it held any. */
        void release(CounterRequest request, long reservedAt) {
            if (request.holdsPendingUnits()) {
                penalty.released(reservedAt, request.cost());
            }
        }

        Decision peek(CounterRequest request, long now) {
            Decision blocked = request.penalty().applies() ? penalty.blocked(now, request.count()) : null;
            return blocked != null ? blocked : state.peek(now, request);
        }

        boolean expiredAt(long now) {
            return state.expiredAt(now) && penalty.expiredAt(now);
        }
    }
}
