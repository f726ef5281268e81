package dev.ratelimit.interceptor.internal.instance;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The parts of this instance whose state a heartbeat reports, read at each beat.
 *
 * @param store          where counters live, e.g. {@code redis}
 * @param circuitBreaker {@code null} without a Redis store
 * @param nearCache      {@code null} without a near cache
 * @param leases         the leases of this instance's requests running under concurrency limits
 * @param permits        the permits of hot counters it holds; {@code null} when it batches none
 */
public record InstanceState(String module, String store, @Nullable CircuitBreaker circuitBreaker,
                            @Nullable NearCache nearCache, RuleSnapshotHolder snapshots, HeldLeases leases,
                            @Nullable HeldPermits permits) {

    String circuitState() {
        return circuitBreaker == null ? "none" : circuitBreaker.status().state().name().toLowerCase(Locale.ROOT);
    }

    int nearCacheSize() {
        return nearCache == null ? -1 : nearCache.size();
    }

    int leasesHeld() {
        return leases.size();
    }

    int hotCounters() {
        return permits == null ? 0 : permits.counters();
    }

    long permitsHeld() {
        return permits == null ? 0 : permits.permits();
    }

    long configVersion() {
        return snapshots.current().version();
    }
}
