package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.bench.StoreLimiter;
import dev.ratelimit.bench.call.BeanMethodLimiter;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.EnumSet;
import java.util.Set;

/**
 * Everything that decides on Redis in the benchmarks. Ours decides on the limiter's own connection; the
 * script-on-a-template peers on Spring Data's template, as an app has it (Lettuce, one shared connection:
 * Spring Boot's default); Bucket4j and Redisson bring their own clients, as they do in an app.
 */
public enum RedisContender {

    OURS_FIXED_WINDOW((redis, limit, keys) -> ours(redis, Algorithm.FIXED_WINDOW, limit, keys)),
    OURS_SLIDING_WINDOW((redis, limit, keys) -> ours(redis, Algorithm.SLIDING_WINDOW, limit, keys)),
    OURS_SLIDING_LOG((redis, limit, keys) -> ours(redis, Algorithm.SLIDING_LOG, limit, keys)),
    OURS_TOKEN_BUCKET((redis, limit, keys) -> ours(redis, Algorithm.TOKEN_BUCKET, limit, keys)),
    /** A fixed window with {@code countWhen} whose every admitted request gives its unit back. */
    OURS_FIXED_WINDOW_REFUNDED((redis, limit, keys) -> StoreLimiter.oneLimitRefunded(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys)),
    /** A fixed window with a penalty: the script also reads the counter's penalty hash. */
    OURS_FIXED_WINDOW_PENALIZED((redis, limit, keys) -> StoreLimiter.oneLimitPenalized(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys)),
    /**
     * A fixed window with {@code countWhen} and a penalty whose every admitted request gives its unit back: the
     * unit is also held pending in the penalty hash until then.
     */
    OURS_FIXED_WINDOW_PENDING_GIVEN_BACK((redis, limit, keys) -> StoreLimiter.oneLimitPending(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys, false)),
    /**
     * A fixed window with {@code countWhen} and a penalty whose every response matches: the unit held pending is
     * confirmed by one more script call once the response is written.
     */
    OURS_FIXED_WINDOW_PENDING_KEPT((redis, limit, keys) -> StoreLimiter.oneLimitPending(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys, true)),
    /** A fixed window whose every request weighs 3 units ({@code cost}): one more script argument. */
    OURS_FIXED_WINDOW_COST_3((redis, limit, keys) -> StoreLimiter.oneLimitWeighed(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys, 3)),
    /** A daily calendar quota: the fixed window with the period starts around now as four more arguments. */
    OURS_DAILY_QUOTA((redis, limit, keys) -> StoreLimiter.oneDailyQuota(
            new RedisRateLimitStore(redis.connection()), limit, keys)),
    /** A peek at a fixed window: the counting script in its mode that writes nothing. */
    OURS_FIXED_WINDOW_PEEK((redis, limit, keys) -> StoreLimiter.oneLimitPeeked(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys)),
    /** A limit of requests running at once: each request takes a lease and, admitted, releases it. */
    OURS_CONCURRENCY((redis, limit, keys) ->
            StoreLimiter.oneLease(new RedisRateLimitStore(redis.connection()), limit, keys)),
    /** A fixed window whose cost is settled after the response: an estimate of 1, settled at 3. */
    OURS_FIXED_WINDOW_SETTLED((redis, limit, keys) -> StoreLimiter.oneLimitSettled(
            new RedisRateLimitStore(redis.connection()), Algorithm.FIXED_WINDOW, limit, keys, 3)),
    /** A token bucket whose cost is settled after the response: an estimate of 1, settled at 3. */
    OURS_TOKEN_BUCKET_SETTLED((redis, limit, keys) -> StoreLimiter.oneLimitSettled(
            new RedisRateLimitStore(redis.connection()), Algorithm.TOKEN_BUCKET, limit, keys, 3)),
    /** A client refused by a full deny list (10,000 entries): the config snapshot decides, Redis is not asked. */
    OURS_DENY_LIST((redis, limit, keys) -> new DenyListLimiter(keys)),
    /** A limited bean method called through its proxy in a running app (a fixed window per user). */
    OURS_BEAN_METHOD((redis, limit, keys) -> new BeanMethodLimiter(redis.port(), limit, keys)),
    /** Two stacked fixed-window limits per request (user and IP), sent together. */
    OURS_TWO_LIMITS((redis, limit, keys) ->
            StoreLimiter.twoLimits(new RedisRateLimitStore(redis.connection()), limit, keys)),
    /** Diagnostic: our fixed-window script through Lettuce alone, no Spring in between. */
    FIXED_WINDOW_SCRIPT_LETTUCE_ONLY((redis, limit, keys) -> new LettuceScriptLimiter(redis.port(), limit, keys)),
    /**
     * Diagnostic: our fixed-window script through {@code StringRedisTemplate.execute}, as the store sends one
     * decision, without the store around it.
     */
    FIXED_WINDOW_SCRIPT_SPRING_CALLBACK((redis, limit, keys) ->
            new SpringCallbackScriptLimiter(new AppTemplate(redis.port()), limit, keys)),
    NAIVE_FIXED_WINDOW((redis, limit, keys) -> new NaiveFixedWindowLimiter(new AppTemplate(redis.port()), limit)),
    BUCKET4J_LETTUCE((redis, limit, keys) -> new Bucket4jLettuceLimiter(redis.port(), limit, keys)),
    REDISSON((redis, limit, keys) -> new RedissonLimiter(redis.port(), limit, keys)),
    SCG_TOKEN_BUCKET((redis, limit, keys) -> new ScgTokenBucketLimiter(new AppTemplate(redis.port()), limit));

    /** Our kinds of limit beyond the plain count, measured beside our fixed window rather than against the peers. */
    private static final Set<RedisContender> OUR_OTHER_KINDS = EnumSet.of(OURS_FIXED_WINDOW_REFUNDED,
            OURS_FIXED_WINDOW_PENALIZED, OURS_FIXED_WINDOW_PENDING_GIVEN_BACK, OURS_FIXED_WINDOW_PENDING_KEPT,
            OURS_FIXED_WINDOW_COST_3, OURS_DAILY_QUOTA, OURS_FIXED_WINDOW_PEEK,
            OURS_CONCURRENCY, OURS_FIXED_WINDOW_SETTLED, OURS_TOKEN_BUCKET_SETTLED, OURS_DENY_LIST, OURS_BEAN_METHOD);

    /** How a contender is set up on a running Redis. */
    @FunctionalInterface
    interface Opener {
        Limiter open(RedisServerProcess redis, BenchLimit limit, int keys);
    }

    private final Opener opener;

    RedisContender(Opener opener) {
        this.opener = opener;
    }

    /** A contender on {@code redis} deciding {@code limit} on counters {@code 0..keys-1}. */
    Limiter open(RedisServerProcess redis, BenchLimit limit, int keys) {
        return opener.open(redis, limit, keys);
    }

    /**
     * Whether it is one limiter deciding one plain limit per request, to compare with the peers: every
     * contender but the two-limit one, our other kinds of limit, and the diagnostic transports of our
     * fixed-window script.
     */
    public boolean decidesOneLimit() {
        return this != OURS_TWO_LIMITS && !OUR_OTHER_KINDS.contains(this) && !name().startsWith("FIXED_WINDOW_SCRIPT_");
    }

    private static Limiter ours(RedisServerProcess redis, Algorithm algorithm, BenchLimit limit, int keys) {
        return StoreLimiter.oneLimit(new RedisRateLimitStore(redis.connection()), algorithm, limit, keys);
    }
}
