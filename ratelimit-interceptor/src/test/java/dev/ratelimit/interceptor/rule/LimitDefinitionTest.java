package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import org.junit.jupiter.api.Test;

class LimitDefinitionTest {

    private final LimitDefinition declared = new LimitDefinition("shop", "OrderController.create", 5, 60,
            Dimension.USER, Algorithm.TOKEN_BUCKET, "", LimitDefinition.DEFAULT_MESSAGE_KEY);

    @Test
    void anOverrideBeyondExactArithmeticIsLoweredToTheBoundInsteadOfFailingRequests() {
        LimitDefinition overridden = declared.withLimit(Long.MAX_VALUE, 86_400);

        assertThat(overridden.windowSeconds()).isEqualTo(86_400);
        assertThat(overridden.count()).isEqualTo(LimitDefinition.MAX_COUNT_TIMES_WINDOW_MILLIS / 86_400_000);
        assertThat(declared.withLimit(1, Long.MAX_VALUE).windowSeconds())
                .isEqualTo(LimitDefinition.MAX_COUNT_TIMES_WINDOW_MILLIS / 1000);
    }

    @Test
    void anOrdinaryOverrideIsTakenAsItIs() {
        assertThat(declared.withLimit(100, 3600)).extracting(LimitDefinition::count, LimitDefinition::windowSeconds)
                .containsExactly(100L, 3600L);
        assertThat(declared.withLimit(5, 60)).isSameAs(declared);
    }
}
