package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.RuleId;
import org.junit.jupiter.api.Test;

/** Counter keys carry no hash tag and split back into their parts. */
class RedisKeysTest {

    private final RedisKeys keys = new RedisKeys("ratelimit");

    @Test
    void plainNamesAreKeptAsTheyAre() {
        assertThat(keys.counter(RuleId.of("shop", "OrderController.create"), Dimension.USER, Algorithm.FIXED_WINDOW, "alice"))
                .isEqualTo("ratelimit:counter:shop:OrderController.create:USER:alice");
    }

    /** A dynuri pattern with a path variable and a regex: braces would pick one slot for every counter of the rule. */
    @Test
    void bracesColonsAndPercentOfARuleNameAreEncoded() {
        String key = keys.counter(RuleId.of("shop", "/orders/{id:\\d+}/100%"), Dimension.USER, Algorithm.TOKEN_BUCKET, "2001:db8::/64");

        assertThat(key).isEqualTo("ratelimit:counter:shop:/orders/%7Bid%3A\\d+%7D/100%25:USER@TOKEN_BUCKET:2001:db8::/64");
        assertThat(key).doesNotContain("{", "}");
        assertThat(key.split(":", 6)).containsExactly("ratelimit", "counter", "shop", "/orders/%7Bid%3A\\d+%7D/100%25",
                "USER@TOKEN_BUCKET", "2001:db8::/64");
    }

    @Test
    void distinctNamesStayDistinct() {
        assertThat(keys.counter(RuleId.of("m", "a%7Bb"), Dimension.IP, Algorithm.FIXED_WINDOW, "x"))
                .isNotEqualTo(keys.counter(RuleId.of("m", "a{b"), Dimension.IP, Algorithm.FIXED_WINDOW, "x"));
    }
}
