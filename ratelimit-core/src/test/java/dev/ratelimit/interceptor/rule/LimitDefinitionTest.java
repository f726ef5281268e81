package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.Penalty;
import org.junit.jupiter.api.Test;

/** The one check of a count and window: the annotation, the config hash and the console all use it. */
class LimitDefinitionTest {

    private final LimitDefinition declared = new LimitDefinition(RuleId.of("shop", "OrderController.create"), 5, 60,
            Dimension.USER, Algorithm.TOKEN_BUCKET, "", LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE,
                    RequestCost.ONE, CalendarQuota.NONE, "");

    @Test
    void aWindowLongerThanAYearOrACountBeyondExactArithmeticIsRefusedWithTheReason() {
        assertThatThrownBy(() -> LimitDefinition.check(5, 99_999_999_999_999L))
                .hasMessage("a window is at most 366 days (31622400 s), got 99999999999999 s");
        assertThatThrownBy(() -> LimitDefinition.check(Long.MAX_VALUE, 86_400))
                .hasMessage("count 9223372036854775807 per 86400 s is too large: at most 104249991 per 86400 s");
        assertThatThrownBy(() -> declared.withLimit(5, 99_999_999_999_999L)).hasMessageContaining("rule shop.OrderController.create");
        LimitDefinition.check(LimitDefinition.MAX_COUNT_TIMES_WINDOW_MILLIS / 86_400_000, 86_400);
        LimitDefinition.check(1, LimitDefinition.MAX_WINDOW_SECONDS);
    }

    @Test
    void anOrdinaryOverrideIsTakenAsItIs() {
        assertThat(declared.withLimit(100, 3600)).extracting(LimitDefinition::count, LimitDefinition::windowSeconds)
                .containsExactly(100L, 3600L);
        assertThat(declared.withLimit(5, 60)).isSameAs(declared);
    }
}
