package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counter keys of the request path ({@link RedisKeys#counter}): the part before the identity is made once
 * per rule, not once per request, and so is the whole key of a limit that counts everyone under one identity.
 */
final class CounterKeys {

    /** More rules than this (thousands of {@code dynuri} patterns) have their keys made whole each time. */
    private static final int MOST_RULES_KEPT = 4096;

    private final RedisKeys keys;
    private final ConcurrentHashMap<RuleId, Start> starts = new ConcurrentHashMap<>();

    CounterKeys(RedisKeys keys) {
        this.keys = keys;
    }

    String counter(LimitDefinition limit, String identity) {
        Start start = starts.get(limit.id());
        if (start == null || start.dimension() != limit.dimension() || start.algorithm() != limit.algorithm()) {
            String text = keys.counterStart(limit.id(), limit.dimension(), limit.algorithm());
            start = new Start(limit.dimension(), limit.algorithm(), text, text + DimensionKeys.EVERYONE);
            if (starts.size() < MOST_RULES_KEPT) {
                starts.put(limit.id(), start);
            }
        }
        return identity.equals(DimensionKeys.EVERYONE) ? start.everyone() : start.text() + identity;
    }

    /** @param everyone the whole key of the identity everyone of a METHOD or GLOBAL limit counts under */
    private record Start(Dimension dimension, Algorithm algorithm, String text, String everyone) {
    }
}
