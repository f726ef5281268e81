package dev.ratelimit.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chaos run's checker finds what it is there to find, on responses made up to show each case. */
class ChaosReportTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long USER_COUNT = ChaosRun.USER_COUNT;

    private final List<Observation> observations = new ArrayList<>();
    private final List<ChaosEvent> events = new ArrayList<>();

    @Test
    void oneAdmissionTooManyInAWindowOfRedisIsOverTheLimit() {
        admitInOneWindow("alice", 10, USER_COUNT + 1);
        admitInOneWindow("bob", 10, USER_COUNT);

        ChaosReport.Figures figures = report(true).figures();

        assertThat(figures.windowsChecked()).isEqualTo(2);
        assertThat(figures.over()).isEqualTo(1);
    }

    @Test
    void admissionsBeforeAndAfterAFlushAreTwoWindowsAndOneInFlightAcrossItLeavesItsWindowOut() {
        events.add(new ChaosEvent("FLUSHALL", 20 * SECOND, 20 * SECOND, false, true, 300));
        admitInOneWindow("alice", 19, USER_COUNT);
        admitInOneWindow("alice", 21, USER_COUNT); // a new counter: its window ends a second after the first's
        observations.add(new Observation(20 * SECOND - 1, 20 * SECOND + 1, "/user", "carol", 200, USER_COUNT, 60));

        ChaosReport.Figures figures = report(true).figures();

        assertThat(figures.windowsChecked()).isEqualTo(2);
        assertThat(figures.over()).isZero();
        assertThat(figures.windowsSkipped()).isEqualTo(1);
    }

    @Test
    void whatTheFailurePolicyDecidedWhileRedisWasAwayIsLeftOutUntilTheCircuitClosed() {
        events.add(new ChaosEvent("Redis paused", 30 * SECOND, 33 * SECOND, true, false, 20));
        admitInOneWindow("alice", 34, USER_COUNT + 2);
        admitInOneWindow("bob", 36, USER_COUNT + 2);

        ChaosReport.Figures figures = report(true).figures();

        assertThat(figures.windowsSkipped()).isEqualTo(1);
        assertThat(figures.over()).isEqualTo(2);
    }

    @Test
    void serverErrorsAnotherLimitAndLostValuesAreCounted() {
        observations.add(new Observation(SECOND, SECOND, "/user", "alice", 503, USER_COUNT, -1));
        observations.add(new Observation(SECOND, SECOND, "/user", "bob", 429, 50, 30));
        observations.add(new Observation(SECOND, SECOND, "/short", "bob", 200, -1, -1));
        events.add(new ChaosEvent("FLUSHALL", 5 * SECOND, 5 * SECOND, false, true, -1));

        ChaosReport.Figures figures = report(false).figures();

        assertThat(figures.serverErrors()).isEqualTo(1);
        assertThat(figures.otherLimit()).as("the declared 50 in place of the operator's 2").isEqualTo(1);
        assertThat(figures.lost()).as("not back after the flush, and missing at the end").isEqualTo(2);
    }

    /** {@code admitted} admissions of one user sent at {@code second}, each told its window ends a minute later. */
    private void admitInOneWindow(String user, long second, long admitted) {
        for (int i = 0; i < admitted; i++) {
            long at = second * SECOND + i * 1_000_000L;
            observations.add(new Observation(at, at, "/user", user, 200, USER_COUNT, 60));
        }
    }

    private ChaosReport report(boolean keptAtEnd) {
        return new ChaosReport(observations, events, 0, keptAtEnd, Duration.ofMinutes(1), 1, 1);
    }
}
