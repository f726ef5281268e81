package dev.ratelimit.console.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Growing delays per address and user name, never a lock for everyone, exact under concurrency. */
class LoginThrottleTest {

    private static final int BURST = 100;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(clock);

    @Test
    void eachFailureBeyondTheFreeOnesDoublesTheWaitOfThatAddressAndName() {
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            assertThat(attempt("198.51.100.7", "admin", false)).as("free failure %d", i).isZero();
        }
        assertThat(attempt("198.51.100.7", "admin", true)).isEqualTo(Duration.ofSeconds(1));
        clock.advance(1_000);
        assertThat(attempt("198.51.100.7", "admin", false)).isZero();
        assertThat(attempt("198.51.100.7", "admin", true)).isEqualTo(Duration.ofSeconds(2));

        assertThat(attempt("198.51.100.8", "admin", true)).as("another address").isZero();
        assertThat(attempt("198.51.100.7", "ops", true)).as("another name").isZero();
        assertThat(LoginThrottle.delay(40)).isEqualTo(LoginThrottle.MAX_DELAY);
    }

    @Test
    void aSuccessfulLoginOrAQuietHalfHourForgetsTheFailures() {
        failUntilWaiting("198.51.100.7", "admin", 5);
        clock.advance(LoginThrottle.delay(5).toMillis());
        assertThat(attempt("198.51.100.7", "admin", true)).isZero();
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            assertThat(attempt("198.51.100.7", "admin", false)).as("free again, failure %d", i).isZero();
        }

        clock.advance(LoginThrottle.FORGET_AFTER.toMillis() + 1);
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            assertThat(attempt("198.51.100.7", "admin", false)).as("forgotten, failure %d", i).isZero();
        }
    }

    /** Made-up names cannot push an active guesser out of the table and so lift its wait. */
    @Test
    void aFloodOfNamesStaysBoundedAndKeepsTheActiveGuesser() {
        failUntilWaiting("203.0.113.9", "admin", 8);
        for (int i = 0; i < LoginThrottle.MAX_TRACKED * 3; i++) {
            attempt("203.0.113.9", "name-" + i, false);
        }

        assertThat(throttle.tracked()).isLessThanOrEqualTo(LoginThrottle.MAX_TRACKED);
        assertThat(throttle.admit("203.0.113.9", "admin")).isPositive();
    }

    /**
     * Once seen: 61 of 100 posts sent as a wait ended had their password checked, because the wait was
     * read and the failure recorded in separate steps. Every admitted check here stays in flight until
     * every post was answered or admitted, so a throttle that counts a failure only once it happened
     * admits them all.
     */
    @Test
    void aBurstAsTheWaitEndsGetsExactlyOneCheck() throws Exception {
        failUntilWaiting("203.0.113.10", "admin", LoginThrottle.FREE_FAILURES);
        clock.advance(LoginThrottle.delay(LoginThrottle.FREE_FAILURES).toMillis());
        CountDownLatch decided = new CountDownLatch(BURST);
        ConcurrentLinkedQueue<Duration> waits = new ConcurrentLinkedQueue<>();

        int checked = ConcurrentClients.admitted(BURST, 1, thread -> {
            Duration wait = throttle.admit("203.0.113.10", "admin");
            decided.countDown();
            if (!wait.isZero()) {
                waits.add(wait);
                return false;
            }
            assertThat(decided.await(30, TimeUnit.SECONDS)).as("every post decided").isTrue();
            throttle.failed("203.0.113.10", "admin");
            return true;
        });

        assertThat(checked).as("passwords checked").isEqualTo(1);
        assertThat(waits).hasSize(BURST - 1)
                .allSatisfy(wait -> assertThat(wait).isEqualTo(LoginThrottle.delay(LoginThrottle.FREE_FAILURES + 1)));
        assertThat(throttle.admit("203.0.113.10", "admin")).as("after the burst")
                .isEqualTo(LoginThrottle.delay(LoginThrottle.FREE_FAILURES + 1));
    }

    /** A first burst of wrong passwords gets the free failures checked, the checks in flight together, and no more. */
    @Test
    void aFirstBurstGetsExactlyTheFreeChecks() throws Exception {
        CountDownLatch inFlight = new CountDownLatch(LoginThrottle.FREE_FAILURES);

        int checked = ConcurrentClients.admitted(BURST, 1, thread -> {
            if (!throttle.admit("203.0.113.11", "admin").isZero()) {
                return false;
            }
            inFlight.countDown();
            assertThat(inFlight.await(30, TimeUnit.SECONDS)).as("the free checks in flight together").isTrue();
            throttle.failed("203.0.113.11", "admin");
            return true;
        });

        assertThat(checked).as("passwords checked").isEqualTo(LoginThrottle.FREE_FAILURES);
    }

    /**
     * The right password from a pair that has not failed is never refused, not even while more of its
     * attempts are being checked than the free failures: those are not failures yet, so it waits for them.
     */
    @Test
    void rightPasswordsAtOnceFromAPairThatHasNotFailedAreAllAdmitted() throws Exception {
        int logins = 2 * LoginThrottle.FREE_FAILURES + 2;
        CountDownLatch inFlight = new CountDownLatch(LoginThrottle.FREE_FAILURES);

        int admitted = ConcurrentClients.admitted(logins, 1, thread -> {
            Duration wait = throttle.admit("192.0.2.30", "admin");
            assertThat(wait).as("login %d", thread).isZero();
            inFlight.countDown();
            assertThat(inFlight.await(30, TimeUnit.SECONDS)).as("logins checked together").isTrue();
            throttle.succeeded("192.0.2.30", "admin");
            return true;
        });

        assertThat(admitted).isEqualTo(logins);
        assertThat(throttle.tracked()).as("every success settled").isZero();
    }

    /** One attempt, settled with its outcome when admitted; the wait it was told otherwise. */
    private Duration attempt(String address, String username, boolean rightPassword) {
        Duration wait = throttle.admit(address, username);
        if (wait.isZero() && rightPassword) {
            throttle.succeeded(address, username);
        } else if (wait.isZero()) {
            throttle.failed(address, username);
        }
        return wait;
    }

    /** Wrong passwords, each sent as soon as the last wait ends, until {@code failures} failed in a row. */
    private void failUntilWaiting(String address, String username, int failures) {
        for (int i = 0; i < failures; i++) {
            Duration wait = attempt(address, username, false);
            if (!wait.isZero()) {
                clock.advance(wait.toMillis());
                i--;
            }
        }
        assertThat(throttle.admit(address, username)).isEqualTo(LoginThrottle.delay(failures));
    }
}
