package dev.ratelimit.interceptor.penalty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.testsupport.GatedBurst;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Every kind of limit ({@link LimitKind}) on every algorithm it takes, each with a penalty, on the instances of
 * {@link PenaltyMatrixApplication}: only a final denial starts a block. Run by each test class that starts them
 * on a store.
 */
public interface PenaltyMatrixContract {

    /** The running instances of {@link PenaltyMatrixApplication}, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    static Stream<Arguments> everyKindOnEveryAlgorithmItTakes() {
        return Stream.of(LimitKind.values())
                .flatMap(kind -> kind.algorithms().stream().map(algorithm -> Arguments.of(kind, algorithm)));
    }

    /**
     * Honest traffic at once over the instances, held while it runs, starts no block: what fits gets in, and
     * where the units of the requests running stay pending (a login counting its failures, an estimate settled
     * after the response) as much again is refused with the wait of a request's end, one second, and the client
     * is admitted once they ended. A client that truly exceeds the limit is blocked for the penalty, to the
     * second, on every instance.
     */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.ratelimit.interceptor.penalty.PenaltyMatrixContract#everyKindOnEveryAlgorithmItTakes")
    default void onlyAFinalDenialStartsABlock(LimitKind kind, Algorithm algorithm) throws Exception {
        PenalizedClient client = new PenalizedClient(apps(), kind, algorithm);
        long penalty = client.penaltySeconds();
        List<Long> fits = client.honestUnits();

        List<Long> honest = new ArrayList<>(fits);
        if (client.pending()) {
            honest.addAll(fits);
        }
        long settles = client.settlesAnswered();
        GatedBurst.Held<PenalizedClient.Attempt> burst = client.burst(honest, false, "honest-" + System.nanoTime());
        assertThat(burst.admitted()).as("honest attempts that got in").isEqualTo(fits.size());
        assertThat(burst.answered()).as("honest attempts refused while others ran")
                .filteredOn(attempt -> !attempt.admitted()).hasSize(honest.size() - fits.size())
                .allSatisfy(refused -> assertThat(refused.retryAfterSeconds()).as("until a request may end").isEqualTo(1));
        if (client.reserves()) {
            client.awaitSettled(settles, fits.size());
        }
        if (client.pending()) {
            settles = client.settlesAnswered();
            assertThat(client.attempt(0, false, fits.get(0), null).admitted()).as("what they held came back").isTrue();
            client.awaitSettled(settles, 1);
        }
        assertThat(client.peek()).as("no block").hasValueSatisfying(allowance ->
                assertThat(allowance.retryAfter().toSeconds()).isLessThan(penalty));

        PenalizedClient.Attempt over = exceed(client, fits);
        assertThat(over.admitted()).as("the attempt past the limit").isFalse();
        assertThat(over.retryAfterSeconds()).as("blocked for the penalty").isEqualTo(penalty);
        PenalizedClient.Attempt again = client.attempt(1, true, 1, null);
        assertThat(again.admitted()).as("the next attempt, on another instance").isFalse();
        assertThat(again.retryAfterSeconds()).as("the same block").isBetween(penalty - 1, penalty);
        assertThat(client.peek()).hasValueSatisfying(allowance ->
                assertThat(allowance.retryAfter().toSeconds()).as("the block").isBetween(penalty - 2, penalty));
    }

    /**
     * The client truly exceeds the limit: its concurrency limit's slots held, one attempt more; or the units
     * counted (failed logins, estimates used in full), then one attempt more. Returns that attempt's answer.
     */
    private static PenalizedClient.Attempt exceed(PenalizedClient client, List<Long> fits) throws Exception {
        long settles = client.settlesAnswered();
        if (client.concurrency()) {
            GatedBurst.Held<PenalizedClient.Attempt> held = client.burst(Collections.nCopies(fits.size() + 1, 1L), true,
                    "over-" + System.nanoTime());
            assertThat(held.admitted()).as("slots taken").isEqualTo(fits.size());
            client.awaitSettled(settles, fits.size());
            return held.answered().stream().filter(attempt -> !attempt.admitted()).findFirst().orElseThrow();
        }
        if (client.pending()) {
            for (int i = 0; i < fits.size(); i++) {
                assertThat(client.attempt(i, true, fits.get(i), null).admitted()).as("counted attempt %d", i).isTrue();
            }
            client.awaitSettled(settles, fits.size());
        }
        return client.attempt(0, true, 1, null);
    }
}
