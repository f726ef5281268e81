package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.PerRuleCache;

/**
 * The counter keys of the request path ({@link RedisKeys#counter}): the part before the identity is made once
 * per rule, not once per request, and so is the whole key of a limit that counts everyone under one identity.
 */
final class CounterKeys {

    private final RedisKeys keys;
    private final PerRuleCache<Start> starts = new PerRuleCache<>(Start::fits, this::start);

    CounterKeys(RedisKeys keys) {
        this.keys = keys;
    }

    String counter(LimitDefinition limit, String identity) {
        Start start = starts.get(limit);
        return identity.equals(CounterIdentity.EVERYONE) ? start.everyone() : start.text() + identity;
    }

    private Start start(LimitDefinition limit) {
        String text = keys.counterStart(limit.id(), limit.dimension(), limit.algorithm());
        return new Start(limit.dimension(), limit.algorithm(), text, text + CounterIdentity.EVERYONE);
    }

    /** @param everyone the whole key of the identity everyone of a METHOD or GLOBAL limit counts under */
    private record Start(Dimension dimension, Algorithm algorithm, String text, String everyone) {

        boolean fits(LimitDefinition limit) {
            return dimension == limit.dimension() && algorithm == limit.algorithm();
        }
    }
}
