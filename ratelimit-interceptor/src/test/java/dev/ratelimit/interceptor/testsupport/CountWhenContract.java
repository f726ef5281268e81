package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.Algorithm;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code countWhen} tests ({@link FailedLogins}) for every algorithm, run by each test class that
 * starts instances on a store: one Redis, a Redis Cluster, the in-process store.
 */
public interface CountWhenContract {

    /** The running instances of the fixture app, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void aLoginCountsExactlyItsFailuresUnderConcurrency(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertExactlyTheFailuresAreCounted(algorithm, "ada-" + algorithm);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void aMixedBurstOfLoginsCountsOnlyItsFailures(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertAMixedBurstCountsOnlyFailures(algorithm, "bob-" + algorithm);
    }
}
