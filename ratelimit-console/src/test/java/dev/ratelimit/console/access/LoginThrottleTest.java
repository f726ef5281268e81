package dev.ratelimit.console.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

    private Instant now = Instant.parse("2026-11-30T10:00:00Z");
    private final LoginThrottle throttle = new LoginThrottle(new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void locksAnAddressAfterTenFailuresUntilTheWindowHasPassed() {
        for (int i = 0; i < LoginThrottle.MAX_FAILURES - 1; i++) {
            throttle.failed("198.51.100.7");
        }
        assertThat(throttle.isLocked("198.51.100.7")).isFalse();
        throttle.failed("198.51.100.7");
        assertThat(throttle.isLocked("198.51.100.7")).isTrue();
        assertThat(throttle.isLocked("198.51.100.8")).isFalse();

        now = now.plus(LoginThrottle.WINDOW).plus(Duration.ofSeconds(1));
        assertThat(throttle.isLocked("198.51.100.7")).isFalse();
    }

    @Test
    void aSuccessfulLoginForgetsTheFailures() {
        for (int i = 0; i < LoginThrottle.MAX_FAILURES - 1; i++) {
            throttle.failed("198.51.100.7");
        }
        throttle.succeeded("198.51.100.7");
        throttle.failed("198.51.100.7");
        assertThat(throttle.isLocked("198.51.100.7")).isFalse();
    }

    @Test
    void aFloodOfAddressesCannotGrowTheTableWithoutBound() {
        for (int i = 0; i < LoginThrottle.MAX_TRACKED * 3; i++) {
            throttle.failed("client-" + i);
        }
        assertThat(throttle.tracked()).isLessThanOrEqualTo(LoginThrottle.MAX_TRACKED);
    }
}
