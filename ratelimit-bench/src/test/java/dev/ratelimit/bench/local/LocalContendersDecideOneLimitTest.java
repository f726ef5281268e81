package dev.ratelimit.bench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every in-process contender enforces the limit it is given: a burst of 1,000 an hour is admitted and
 * the rest refused, except by Guava, whose limiter starts without stored permits and only spaces
 * requests out (its model, stated in the report).
 */
class LocalContendersDecideOneLimitTest {

    private static final BenchLimit LIMIT = BenchLimit.LONG_WINDOW;

    @ParameterizedTest
    @EnumSource(LocalContender.class)
    void admitsTheLimitAndThenRefuses(LocalContender contender) {
        try (Limiter limiter = contender.open(LIMIT, 2)) {
            int admitted = 0;
            for (int i = 0; i < LIMIT.count() + 20; i++) {
                if (limiter.tryAcquire(0)) {
                    admitted++;
                }
            }

            int burst = contender == LocalContender.GUAVA ? 1 : (int) LIMIT.count();
            assertThat(admitted).isBetween(burst, burst + 1);
            assertThat(limiter.tryAcquire(1)).as("another counter").isTrue();
        }
    }
}
