package dev.ratelimit.interceptor.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.HttpLoad;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A flood is not an outage: 32 clients sending as fast as they can, half with a new identity on every
 * request and half as a few identities long blocked, next to one steady user on the same endpoint. The
 * machine's CPUs are saturated by the flood, so Redis' replies are read late; that must neither open the
 * circuit nor loosen the steady user's limit.
 */
class FloodTest {

    private static final int LIMIT = 50;
    private static final int STEADY_REQUESTS = 150;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void theSteadyUserGetsExactlyTheLimitAndTheCircuitStaysClosed() throws Exception {
        ConfigurableApplicationContext app = env.start();
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        CircuitBreaker.Status before = circuit.status();
        for (int bot = 0; bot < 4; bot++) {
            int blocked = bot;
            IntStream.range(0, LIMIT).forEach(i -> http.status("/user?usercode=blocked-" + blocked));
        }

        long steadyAdmitted;
        List<HttpLoad.Sample> flood;
        try (HttpLoad load = new HttpLoad(http, 32, i -> "/user?usercode="
                + (i % 2 == 0 ? "fresh-" + i : "blocked-" + (i % 4)))) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.samples().size() >= 500);
            long start = System.nanoTime();
            steadyAdmitted = IntStream.range(0, STEADY_REQUESTS)
                    .filter(i -> Statuses.admitted(http.status("/user?usercode=steady"))).count();
            flood = load.samples().stream().filter(sample -> sample.startNanos() >= start).toList();
        }

        assertThat(steadyAdmitted).isEqualTo(LIMIT);
        assertThat(circuit.status()).as("the circuit never opened").isEqualTo(before);
        assertThat(flood).allSatisfy(sample -> assertThat(sample.status()).as(sample.toString()).isIn(200, 429));
        double seconds = (flood.get(flood.size() - 1).startNanos() - flood.get(0).startNanos()) / 1e9;
        System.out.printf("FIGURES flood: %d requests of the flood (%.0f/s) next to the steady user's %d; "
                + "flood latency p50 %.1f ms p99 %.1f ms%n", flood.size(), flood.size() / seconds, STEADY_REQUESTS,
                HttpLoad.percentileMillis(flood, 50), HttpLoad.percentileMillis(flood, 99));
    }
}
