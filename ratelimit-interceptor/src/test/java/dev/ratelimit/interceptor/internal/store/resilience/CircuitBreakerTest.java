package dev.ratelimit.interceptor.internal.store.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class CircuitBreakerTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final CircuitBreaker circuit = new CircuitBreaker(3, "deciding elsewhere", clock);

    @Test
    void opensAfterTheThresholdOfFailuresInARow() {
        circuit.recordFailure("one");
        circuit.recordFailure("two");
        assertThat(circuit.isClosed()).isTrue();

        clock.advance(500);
        circuit.recordFailure("three");

        assertThat(circuit.isClosed()).isFalse();
        assertThat(circuit.status()).isEqualTo(new CircuitBreaker.Status(CircuitBreaker.State.OPEN,
                Instant.ofEpochMilli(1_000_500), "three"));
    }

    @Test
    void aSuccessStartsTheCountAgain() {
        circuit.recordFailure("failed");
        circuit.recordFailure("failed");
        circuit.recordSuccess();
        circuit.recordFailure("failed");
        circuit.recordFailure("failed");

        assertThat(circuit.isClosed()).isTrue();
        assertThat(circuit.consecutiveFailures()).isEqualTo(2);
    }

    @Test
    void closesWhenAProbeGetsAnAnswerAndCountsAfresh(CapturedOutput output) {
        for (int i = 0; i < 3; i++) {
            circuit.recordFailure("failed");
        }
        clock.advance(2_500);

        circuit.probeSucceeded();

        assertThat(circuit.isClosed()).isTrue();
        assertThat(circuit.consecutiveFailures()).isZero();
        assertThat(circuit.status().since()).isEqualTo(Instant.ofEpochMilli(1_002_500));
        assertThat(output).contains("Redis answers again after 2.5 s; decisions are back on Redis");
    }

    @Test
    void manyThreadsFailingAtOnceOpenItOnceAndLogItOnce(CapturedOutput output) throws Exception {
        ConcurrentClients.admitted(32, 100, thread -> {
            circuit.recordFailure("down");
            return true;
        });
        circuit.probeSucceeded();
        circuit.probeSucceeded();

        assertThat(output.getOut().split("Redis failed 3 times in a row", -1)).hasSize(2);
        assertThat(output.getOut().split("Redis answers again", -1)).hasSize(2);
        assertThat(output).contains("deciding elsewhere until it answers again");
    }
}
