package dev.ratelimit.interceptor.rule;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.store.Penalty;

/**
 * One limit in force: who is counted ({@code dimension}), how many requests ({@code count}) per
 * window ({@code windowSeconds}), by which algorithm. Built from {@code @RateLimit}, a {@code dyn.*}
 * or a {@code dynuri.*} field, with the config hash's overrides applied.
 *
 * @param id          the rule's id, the name of its counters and config fields
 * @param count       requests admitted per window, at least 1; for {@link Algorithm#CONCURRENCY}, requests running at once
 * @param windowSeconds window length in seconds, at least 1; for {@link Algorithm#CONCURRENCY}, the lease: how long a
 *                    slot outlives an instance that stopped renewing it
 * @param key         SpEL expression of a {@link Dimension#CUSTOM} limit, else empty
 * @param messageKey  message key of the rejection text
 * @param countWhen   SpEL condition on the response for the request to stay counted, else empty (every request)
 * @param penalty     how long a denied client stays denied; {@link Penalty#NONE} for none
 * @param cost        what one request weighs; {@link RequestCost#ONE} for one unit
 * @param quota       the calendar period of a quota (then {@code windowSeconds} is its longest length);
 *                    {@link CalendarQuota#NONE} for a window from the first request
 * @param plan        SpEL expression on the request giving the client's plan, else empty
 */
public record LimitDefinition(RuleId id, long count, long windowSeconds, Dimension dimension,
                              Algorithm algorithm, String key, String messageKey, String countWhen, Penalty penalty,
                              RequestCost cost, CalendarQuota quota, String plan) {

    public static final String DEFAULT_MESSAGE_KEY = "ratelimit.rejected";

    /**
     * Upper bound of count × window in milliseconds: 2^53, so that the algorithms' integer arithmetic
     * is exact in Lua's double-precision numbers too (10^8 requests per day still fit).
     */
    public static final long MAX_COUNT_TIMES_WINDOW_MILLIS = 1L << 53;

    /** The longest window: 366 days, a year whatever the year. */
    public static final long MAX_WINDOW_SECONDS = 366L * 24 * 60 * 60;

    public LimitDefinition {
        try {
            check(count, windowSeconds);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("rule " + id + ": " + e.getMessage(), e);
        }
        if (algorithm == Algorithm.CONCURRENCY) {
            checkConcurrency(countWhen, cost);
        }
    }

    /** What a concurrency limit cannot have: a request running holds one slot until it ends, whatever it weighs or answers. */
    private static void checkConcurrency(String countWhen, RequestCost cost) {
        if (!countWhen.isEmpty()) {
            throw new IllegalArgumentException("a CONCURRENCY limit has no countWhen: a request holds its slot while "
                    + "it runs, whatever its response");
        }
        if (!cost.equals(RequestCost.ONE)) {
            throw new IllegalArgumentException("a CONCURRENCY limit has no cost, costExpression or costFromResponse: "
                    + "a request running holds one slot");
        }
    }

    /**
     * The one check of a count and window, wherever they come from (an annotation, a config field, the
     * console): both at least 1, the window at most {@link #MAX_WINDOW_SECONDS}, count × window in ms
     * within {@link #MAX_COUNT_TIMES_WINDOW_MILLIS}, so that the algorithms' integer arithmetic is exact.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    public static void check(long count, long windowSeconds) {
        if (count < 1 || windowSeconds < 1) {
            throw new InvalidValueException("ratelimit.config.atLeastOne", count, windowSeconds);
        }
        if (windowSeconds > MAX_WINDOW_SECONDS) {
            throw new InvalidValueException("ratelimit.config.window", MAX_WINDOW_SECONDS, windowSeconds);
        }
        if (count > MAX_COUNT_TIMES_WINDOW_MILLIS / (windowSeconds * 1000)) {
            throw new InvalidValueException("ratelimit.config.count", count, windowSeconds,
                    MAX_COUNT_TIMES_WINDOW_MILLIS / (windowSeconds * 1000));
        }
    }

    /** This limit with another count and window, which {@link #check} must accept. */
    public LimitDefinition withLimit(long newCount, long newWindowSeconds) {
        if (newCount == count && newWindowSeconds == windowSeconds) {
            return this;
        }
        return new LimitDefinition(id, newCount, newWindowSeconds, dimension, algorithm, key, messageKey,
                countWhen, penalty, cost, quota, plan);
    }

    /**
     * This limit counted by another algorithm of a rate, which its cost and quota allow: a cost settled after the
     * response needs a fixed window or a token bucket (the algorithms that carry a debt), a calendar quota a fixed
     * window; a concurrency limit is not a rate and keeps its algorithm.
     *
     * @throws IllegalArgumentException when the limit cannot be counted so
     */
    public LimitDefinition withAlgorithm(Algorithm newAlgorithm) {
        if (newAlgorithm == algorithm) {
            return this;
        }
        if (isConcurrency() || newAlgorithm == Algorithm.CONCURRENCY) {
            throw new IllegalArgumentException("a concurrency limit is not a rate: it has no other algorithm");
        }
        if (quota.isCalendar() && newAlgorithm != Algorithm.FIXED_WINDOW) {
            throw new IllegalArgumentException("a calendar quota is counted by FIXED_WINDOW");
        }
        if (settlesCost() && newAlgorithm != Algorithm.FIXED_WINDOW && newAlgorithm != Algorithm.TOKEN_BUCKET) {
            throw new IllegalArgumentException("costFromResponse settles on FIXED_WINDOW and TOKEN_BUCKET only");
        }
        return new LimitDefinition(id, count, windowSeconds, dimension, newAlgorithm, key, messageKey, countWhen,
                penalty, cost, quota, plan);
    }

    /** This limit counting by another dimension: who is counted together. */
    public LimitDefinition withDimension(Dimension newDimension) {
        return newDimension == dimension ? this : new LimitDefinition(id, count, windowSeconds, newDimension,
                algorithm, key, messageKey, countWhen, penalty, cost, quota, plan);
    }

    /** This limit with another penalty ({@link Penalty#NONE} for none). */
    public LimitDefinition withPenalty(Penalty newPenalty) {
        return newPenalty.equals(penalty) ? this : new LimitDefinition(id, count, windowSeconds, dimension,
                algorithm, key, messageKey, countWhen, newPenalty, cost, quota, plan);
    }

    /**
     * Whether what a request takes is settled when it ends: units that a response may not count
     * ({@code countWhen}), a lease, an estimate.
     */
    public boolean reserves() {
        return countsSome() || isConcurrency() || settlesCost();
    }

    /** Whether a request's cost is an estimate, settled once its response says what it used. */
    public boolean settlesCost() {
        return cost.settles();
    }

    /** Whether the limit counts requests running at once, each holding a lease until it completes. */
    public boolean isConcurrency() {
        return algorithm == Algorithm.CONCURRENCY;
    }

    /** Whether a request stays counted only when its response matches {@link #countWhen}. */
    public boolean countsSome() {
        return !countWhen.isEmpty();
    }
}
