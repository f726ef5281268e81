package dev.ratelimit.interceptor.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.BusyCpus;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two instances that just started, on a fresh Redis that has none of the scripts yet, with every CPU
 * of the machine kept busy, and their very first limited requests a burst of 32 concurrent clients:
 * exactly the limit is admitted, by every algorithm. The apps run with the shipped defaults.
 */
class ColdStartBurstTest {

    private static final int THREADS = 32;
    private static final int REQUESTS_PER_THREAD = 5;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void theFirstRequestsOfTwoFreshInstancesOnABusyMachineAdmitExactlyTheLimit(Algorithm algorithm) throws Exception {
        try (BusyCpus busy = BusyCpus.start()) {
            List<HttpProbe> instances = List.of(new HttpProbe(FixtureApplication.port(env.start())),
                    new HttpProbe(FixtureApplication.port(env.start())));

            int admitted = ConcurrentClients.admitted(THREADS, REQUESTS_PER_THREAD, thread -> Statuses.admitted(
                    instances.get(thread % 2).status(AlgorithmController.path(algorithm) + "?usercode=first")));

            assertThat(admitted).isEqualTo(AlgorithmController.LIMIT);
        }
    }
}
