package dev.ratelimit.bench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The benchmarks compare like with like only if every contender enforces the same limit: each one,
 * given 1,000 an hour, admits a burst of 1,000 on a counter and then refuses, and keeps its counters
 * apart; of our kinds of limit, the one that gives every unit back and the one that releases every lease
 * never refuse, the one whose requests weigh 3 admits a third, as do those settled at 3, and the deny list
 * refuses every client.
 */
class RedisContendersDecideOneLimitTest {

    private static final BenchLimit LIMIT = BenchLimit.LONG_WINDOW;

    @RegisterExtension
    static final RedisWithApps REDIS = new RedisWithApps();

    @BeforeEach
    void empty() {
        REDIS.redis().commands().flushall();
    }

    /**
     * Settlements and refunds a contender sent without waiting land before the next contender's flush: one of the
     * fixed window settled at 3 once landed after it and made the next contender's token bucket, on the same key,
     * meet the window's hash (WRONGTYPE).
     */
    @AfterEach
    void answered() {
        REDIS.redis().awaitSent();
    }

    @ParameterizedTest
    @EnumSource(RedisContender.class)
    void admitsTheLimitAndThenRefuses(RedisContender contender) {
        try (Limiter limiter = contender.open(REDIS.redis(), LIMIT, 2)) {
            int admitted = 0;
            for (int i = 0; i < LIMIT.count() + 20; i++) {
                if (limiter.tryAcquire(0)) {
                    admitted++;
                }
            }

            int expected = switch (contender) {
                // Every admitted request gives its unit back (a countWhen unit pending, too), or releases its lease,
                // or a peek takes none: none is ever refused.
                case OURS_FIXED_WINDOW_REFUNDED, OURS_FIXED_WINDOW_PENDING_GIVEN_BACK, OURS_FIXED_WINDOW_PEEK,
                     OURS_CONCURRENCY -> (int) LIMIT.count() + 20;
                case OURS_FIXED_WINDOW_COST_3 -> (int) LIMIT.count() / 3;
                // An estimate of 1 settled at 3: admitted while the 3 each earlier one was charged leave room for 1.
                case OURS_FIXED_WINDOW_SETTLED, OURS_TOKEN_BUCKET_SETTLED -> (int) (LIMIT.count() - 1) / 3 + 1;
                // Every client of the deny list is refused, whatever the limit.
                case OURS_DENY_LIST -> 0;
                default -> (int) LIMIT.count();
            };
            // Refilling buckets earn one request every 3.6 s of the hour: at most one during the test.
            assertThat(admitted).isBetween(expected, expected + 1);
            assertThat(limiter.tryAcquire(1)).as("another counter").isEqualTo(contender != RedisContender.OURS_DENY_LIST);
        }
    }
}
