package dev.ratelimit.console.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Growing delays per address and user name, never a lock for everyone. */
class LoginThrottleTest {

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(clock);

    @Test
    void eachFailureBeyondTheFreeOnesDoublesTheWaitOfThatAddressAndName() {
        for (int i = 0; i < LoginThrottle.FREE_FAILURES - 1; i++) {
            throttle.failed("198.51.100.7", "admin");
        }
        assertThat(throttle.wait("198.51.100.7", "admin")).isZero();

        throttle.failed("198.51.100.7", "admin");
        assertThat(throttle.wait("198.51.100.7", "admin")).isEqualTo(Duration.ofSeconds(1));
        clock.advance(1_000);
        assertThat(throttle.wait("198.51.100.7", "admin")).isZero();
        throttle.failed("198.51.100.7", "admin");
        assertThat(throttle.wait("198.51.100.7", "admin")).isEqualTo(Duration.ofSeconds(2));

        assertThat(throttle.wait("198.51.100.8", "admin")).as("another address").isZero();
        assertThat(throttle.wait("198.51.100.7", "ops")).as("another name").isZero();
        assertThat(LoginThrottle.delay(40)).isEqualTo(LoginThrottle.MAX_DELAY);
    }

    @Test
    void aSuccessfulLoginOrAQuietHalfHourForgetsTheFailures() {
        for (int i = 0; i < 6; i++) {
            throttle.failed("198.51.100.7", "admin");
        }
        throttle.succeeded("198.51.100.7", "admin");
        assertThat(throttle.wait("198.51.100.7", "admin")).isZero();

        for (int i = 0; i < 6; i++) {
            throttle.failed("198.51.100.7", "admin");
        }
        clock.advance(LoginThrottle.FORGET_AFTER.toMillis() + 1);
        throttle.failed("198.51.100.7", "admin");
        assertThat(throttle.wait("198.51.100.7", "admin")).isZero();
    }

    /** Made-up names cannot push an active guesser out of the table and so lift its wait. */
    @Test
    void aFloodOfNamesStaysBoundedAndKeepsTheActiveGuesser() {
        for (int i = 0; i < 8; i++) {
            throttle.failed("203.0.113.9", "admin");
        }
        for (int i = 0; i < LoginThrottle.MAX_TRACKED * 3; i++) {
            throttle.failed("203.0.113.9", "name-" + i);
        }

        assertThat(throttle.tracked()).isLessThanOrEqualTo(LoginThrottle.MAX_TRACKED);
        assertThat(throttle.wait("203.0.113.9", "admin")).isPositive();
    }
}
