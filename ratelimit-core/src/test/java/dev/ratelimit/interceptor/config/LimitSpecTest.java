package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.store.Penalty;
import org.junit.jupiter.api.Test;

/** The value of a dynamic rule: the rate, then who is counted, the algorithm and a penalty, in any order. */
class LimitSpecTest {

    @Test
    void readsCalendarQuotasAndPenaltiesAndWritesThemBack() {
        LimitSpec daily = LimitSpec.parse("1000/day");
        assertThat(daily).isEqualTo(new LimitSpec(1000, 86_400, Dimension.USER, Algorithm.FIXED_WINDOW, QuotaPeriod.DAY,
                Penalty.NONE));
        assertThat(daily.format()).isEqualTo("1000/day");

        LimitSpec blocking = LimitSpec.parse("5/60 penalty=300..3600 ip");
        assertThat(blocking.penalty()).isEqualTo(new Penalty(300_000, 3_600_000));
        assertThat(blocking.dimension()).isEqualTo(Dimension.IP);
        assertThat(blocking.format()).isEqualTo("5/60 ip penalty=300..3600");
        assertThat(LimitSpec.parse("5/60 penalty=300 user sliding_window").format())
                .isEqualTo("5/60 user sliding_window penalty=300");
        assertThat(LimitSpec.parse(blocking.format())).isEqualTo(blocking);
    }

    /** A dynamic concurrency limit: requests at once, its interval the lease. */
    @Test
    void readsAConcurrencyLimitWhoseIntervalIsTheLease() {
        LimitSpec exports = LimitSpec.parse("2/10 concurrency");
        assertThat(exports).isEqualTo(new LimitSpec(2, 10, Dimension.USER, Algorithm.CONCURRENCY));
        assertThat(exports.format()).isEqualTo("2/10 user concurrency");
        assertThat(LimitSpec.parse("1/30 ip concurrency penalty=60").format()).isEqualTo("1/30 ip concurrency penalty=60");
        assertThatThrownBy(() -> LimitSpec.parse("2/day concurrency")).hasMessageContaining("concurrency/day");
    }

    @Test
    void refusesWhatCannotApply() {
        assertThatThrownBy(() -> LimitSpec.parse("1000/month token_bucket")).hasMessageContaining("token_bucket/month");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 penalty=0")).hasMessageContaining("a penalty is <seconds> or <first>..<longest>");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 penalty=600..60")).hasMessageContaining("a penalty is <seconds> or <first>..<longest>");
        assertThatThrownBy(() -> LimitSpec.parse("5/fortnight")).hasMessageContaining("5/fortnight");
    }

    /** The messages name every algorithm a value may name, from the enum: a new one appears without a message changed. */
    @Test
    void itsMessagesNameEveryAlgorithm() {
        assertThatThrownBy(() -> LimitSpec.parse("5/0")).satisfies(error -> {
            for (Algorithm algorithm : Algorithm.values()) {
                assertThat(error.getMessage()).contains(algorithm.name().toLowerCase(java.util.Locale.ROOT));
            }
        });
        for (String refused : new String[] {"concurrency", "bogus"}) {
            assertThatThrownBy(() -> LimitSpec.rateAlgorithm(refused)).as("a rule's algorithm").hasMessage(
                    "an algorithm is one of fixed_window, sliding_window, sliding_log, token_bucket, got '" + refused + "'");
        }
    }
}
