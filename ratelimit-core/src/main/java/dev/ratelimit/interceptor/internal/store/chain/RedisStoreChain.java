package dev.ratelimit.interceptor.internal.store.chain;

import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.internal.store.batch.BatchingRateLimitStore;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCacheRateLimitStore;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.internal.store.resilience.FailoverRateLimitStore;
import dev.ratelimit.interceptor.store.FailurePolicy;
import java.time.Duration;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The stores the limiter decides on with counters in Redis, in the one order in which they work together:
 * Redis; in front of it the failure policy, which decides while Redis does not answer; in front of that the
 * batches of hot counters, whose permits come from Redis or, during an outage, from the policy's store; in
 * front of everything the near cache of denials, which learns from Redis' own decisions only (those of hot
 * counters shortened, since any instance may give their permits back). Every part but Redis is optional: the
 * auto-configuration decides which an app has, this class how they fit.
 */
public final class RedisStoreChain {

    private final RedisRateLimitStore redis;
    private final RateLimitStore front;
    private final @Nullable BatchingRateLimitStore batches;

    private RedisStoreChain(RedisRateLimitStore redis, RateLimitStore front, @Nullable BatchingRateLimitStore batches) {
        this.redis = redis;
        this.front = front;
        this.batches = batches;
    }

    /** Redis alone. */
    public static RedisStoreChain on(RedisRateLimitStore redis) {
        return new RedisStoreChain(redis, redis, null);
    }

    /**
     * The failure policy in front of Redis: see {@link FailoverRateLimitStore}.
     *
     * @throws IllegalStateException once hot counters are batched: their permits must come through the policy
     */
    public RedisStoreChain failingOver(CircuitBreaker circuit, FailurePolicy policy, @Nullable RateLimitStore local,
                                       int instances, Duration retryAfter) {
        if (batches != null) {
            throw new IllegalStateException("the failure policy goes behind the batches of hot counters");
        }
        return new RedisStoreChain(redis,
                new FailoverRateLimitStore(front, circuit, policy, local, instances, retryAfter), null);
    }

    /** Hot counters taken in batches ({@link BatchingRateLimitStore}), their permits kept by {@code upkeep}. */
    public RedisStoreChain batchingHotCounters(HeldPermits upkeep, IntSupplier sharers, long threshold,
                                               Duration batchFor, Duration maxHold) {
        BatchingRateLimitStore batching = new BatchingRateLimitStore(front, sharers, threshold, batchFor, maxHold);
        upkeep.keep(batching);
        return new RedisStoreChain(redis, batching, batching);
    }

    /** The batches of hot counters, or {@code null} when they are not taken in batches. */
    public @Nullable BatchingRateLimitStore batches() {
        return batches;
    }

    /** The chain as it stands, without a near cache. */
    public RateLimitStore store() {
        return front;
    }

    /** The chain behind a near cache of denials, which from now on learns every decision Redis makes. */
    public RateLimitStore behind(NearCache denials) {
        redis.decisionsTo(batches == null ? denials::learn : batches.shorteningDenials(denials::learn));
        return new NearCacheRateLimitStore(front, denials);
    }
}
