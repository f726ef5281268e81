package dev.ratelimit.interceptor.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Penalty;
import org.junit.jupiter.api.Test;

class CounterKeysTest {

    private static final RedisKeys KEYS = new RedisKeys("rl");
    private static final RuleId RULE = RuleId.of("shop", "orders:{id}");

    private final CounterKeys counterKeys = new CounterKeys(KEYS);

    @Test
    void theKeysAreTheLayoutsWhateverWasAskedBefore() {
        for (int round = 0; round < 2; round++) {
            for (String identity : new String[] {"alice", "bob", CounterIdentity.EVERYONE}) {
                assertThat(counterKeys.counter(limit(Dimension.USER, Algorithm.FIXED_WINDOW), identity))
                        .isEqualTo(KEYS.counter(RULE, Dimension.USER, Algorithm.FIXED_WINDOW, identity));
            }
        }
        assertThat(counterKeys.counter(limit(Dimension.GLOBAL, Algorithm.FIXED_WINDOW), CounterIdentity.EVERYONE))
                .isEqualTo("rl:counter:shop:_global:GLOBAL:all");
    }

    @Test
    void aRuleWhoseDimensionOrAlgorithmChangesGetsTheKeyOfTheNewOne() {
        counterKeys.counter(limit(Dimension.METHOD, Algorithm.FIXED_WINDOW), CounterIdentity.EVERYONE);

        assertThat(counterKeys.counter(limit(Dimension.METHOD, Algorithm.TOKEN_BUCKET), CounterIdentity.EVERYONE))
                .isEqualTo("rl:counter:shop:orders%3A%7Bid%7D:METHOD@TOKEN_BUCKET:all");
        assertThat(counterKeys.counter(limit(Dimension.IP, Algorithm.TOKEN_BUCKET), "10.0.0.1"))
                .isEqualTo(KEYS.counter(RULE, Dimension.IP, Algorithm.TOKEN_BUCKET, "10.0.0.1"));
    }

    private static LimitDefinition limit(Dimension dimension, Algorithm algorithm) {
        return new LimitDefinition(RULE, 10, 60, dimension, algorithm, "", LimitDefinition.DEFAULT_MESSAGE_KEY, "",
                Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, "");
    }
}
