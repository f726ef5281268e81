package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.decision.VerdictContext;
import dev.ratelimit.interceptor.fixture.ConcurrencyController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.fixture.SettledCostController;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.GatedBurst;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The failure policies, with Redis killed: those other than the default {@code local}, and what {@code local}
 * does to each instance's share of a limit, to concurrency limits and to costs settled after the response.
 */
class FailurePolicyTest {

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void openLetsEveryRequestPassWhileRedisIsDown() {
        HttpProbe http = startAndKillRedis("ratelimit.redis-failure.mode=open");
        OutcomeCounts counts = env.apps().get(0).getBean(OutcomeCounts.class);
        long errors = counts.snapshot().get("error");

        IntStream.range(0, 10).forEach(i -> assertThat(http.status("/stacked?usercode=olga")).isEqualTo(200));
        assertThat(counts.snapshot().get("error") - errors).as("two limits, ten undecided requests").isEqualTo(20);
    }

    @Test
    void closedRefusesLimitedRequestsWith503UntilRedisIsBack() {
        HttpProbe http = startAndKillRedis("ratelimit.redis-failure.mode=closed",
                "ratelimit.redis-failure.probe-interval=1500ms");
        List<VerdictContext> observed = new CopyOnWriteArrayList<>();
        env.apps().get(0).getBean(ObservationRegistry.class).observationConfig().observationHandler(new ObservationHandler<VerdictContext>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof VerdictContext;
            }

            @Override
            public void onEvent(Observation.Event event, VerdictContext context) {
                observed.add(context);
            }
        });

        HttpResponse<String> refused = http.get("/stacked?usercode=olga", "Accept-Language", "en");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(observed).as("the refusal of the failure policy, an event on the request's observation")
                .singleElement().satisfies(verdict -> {
                    assertThat(verdict.outcome()).isEqualTo(Outcome.ERROR);
                    assertThat(verdict.failure()).isNotBlank();
                    assertThat(verdict.getParentObservation()).as("inside the request's").isNotNull();
                    assertThat(verdict.getParentObservation().getContextView().getName()).isEqualTo("http.server.requests");
                });
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("2");
        assertThat(refused.headers().firstValue("RateLimit")).isEmpty();
        assertThat(refused.body()).isEqualTo("{\"error\":\"The service is temporarily unavailable. Please try again in "
                + "2 second(s).\",\"successful\":0,\"ratelimit\":0,\"retryAfter\":2}");
        assertThat(http.get("/stacked?usercode=olga", "Accept-Language", "ja").body())
                .contains("サービスは一時的に利用できません");
        assertThat(http.status("/open/plain")).as("an endpoint without a limit never asks the store").isEqualTo(200);

        env.redis().restart();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> http.status("/stacked?usercode=olga") == 200);
        assertThat(http.status("/stacked?usercode=olga")).isEqualTo(200);
        assertThat(http.status("/stacked?usercode=olga")).isEqualTo(429);
    }

    @Test
    void closedAnswersAProblemDocumentWhenRejectionsAreProblems() {
        HttpProbe http = startAndKillRedis("ratelimit.redis-failure.mode=closed", "ratelimit.response.body=problem");

        HttpResponse<String> refused = http.get("/user?usercode=olga", "Accept-Language", "en");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(refused.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                + "\"detail\":\"The service is temporarily unavailable. Please try again in 1 second(s).\","
                + "\"instance\":\"/user\",\"retryAfter\":1}");
    }

    @Test
    void localDividesEachLimitByTheNumberOfInstances() {
        HttpProbe http = startAndKillRedis("ratelimit.redis-failure.instances=3");

        long admitted = IntStream.range(0, 30).filter(i -> http.status("/user?usercode=shared") == 200).count();

        assertThat(admitted).as("50 per minute over 3 instances").isEqualTo(16);
    }

    /**
     * While Redis is down a concurrency limit holds in process, at the instance's share of it: 2 at once
     * over 2 instances is 1 here, and a request's end frees it.
     */
    @Test
    void localHoldsEachInstancesShareOfAConcurrencyLimit() throws Exception {
        HttpProbe http = startAndKillRedis("ratelimit.redis-failure.instances=2");

        for (int round = 0; round < 2; round++) {
            String run = "outage-" + round + "-" + System.nanoTime();
            GatedBurst.Round burst = GatedBurst.send(List.of(http), 16, "/concurrent/gated?usercode=olga&run=" + run, run);

            assertThat(burst.inside()).as("round %d", round).isEqualTo(ConcurrencyController.LIMIT / 2);
            assertThat(burst.most()).isEqualTo(ConcurrencyController.LIMIT / 2);
            assertThat(burst.refused()).extracting(HttpResponse::statusCode).containsOnly(429);
            assertThat(burst.admitted()).isEqualTo(ConcurrencyController.LIMIT / 2);
        }
    }

    /**
     * While Redis is down a cost settled after the response is settled in process: 10 requests estimated at
     * 2, each using 5, charge exactly 50 units there.
     */
    @Test
    void localSettlesCostsInProcessWhileRedisIsDown() {
        HttpProbe http = startAndKillRedis();
        String path = SettledCostController.path("roomy", Algorithm.TOKEN_BUCKET) + "?usercode=olga&units=5";

        IntStream.range(0, 10).forEach(i -> assertThat(http.status(path)).isEqualTo(200));

        RateLimitService service = env.apps().get(0).getBean(RateLimitService.class);
        Awaitility.await("50 units charged in process").atMost(Duration.ofSeconds(10)).until(() -> service.peek(
                SettledCostController.rule("roomy", Algorithm.TOKEN_BUCKET), "olga").orElseThrow().remaining()
                == SettledCostController.ROOMY - 50);
    }

    /**
     * An operator's Unblock frees a client the in-process fallback blocked while Redis was down: the
     * announcement of the reset resets that counter in process too, so the client is not refused by what the
     * fallback kept, at the next outage or while the circuit stays open.
     */
    @Test
    void anUnblockFreesAClientTheFallbackBlocked() {
        HttpProbe http = startAndKillRedis();
        ConfigurableApplicationContext app = env.apps().get(0);
        String path = PenaltyController.path(Algorithm.FIXED_WINDOW) + "?usercode=olga";
        IntStream.range(0, PenaltyController.LIMIT).forEach(i -> assertThat(http.status(path)).isEqualTo(200));
        assertThat(http.get(path).headers().firstValue("Retry-After")).as("blocked in process")
                .hasValue(Long.toString(PenaltyController.BLOCK_SECONDS));

        env.redis().restart();
        RedisKeys keys = app.getBean(RedisKeys.class);
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        Awaitility.await("Redis decides again, and the instance hears announcements").atMost(Duration.ofSeconds(10))
                .until(() -> {
                    http.get("/method");
                    return circuit.isClosed() && env.redis().commands().pubsubNumsub(keys.configChangedChannel())
                            .get(keys.configChangedChannel()) > 0;
                });
        long kept = countersInProcess(app);
        String counter = keys.counter(RuleId.of("fixture", "PenaltyController.fixedWindow"), Dimension.USER,
                Algorithm.FIXED_WINDOW, "olga");
        app.getBean(BlockedClients.class).unblock("fixture", keys.counterWithinModule("fixture", counter));
        Awaitility.await("the counter forgotten in process").atMost(Duration.ofSeconds(10))
                .until(() -> countersInProcess(app) == kept - 1);

        env.redis().stop();
        Awaitility.await("the circuit open again").atMost(Duration.ofSeconds(10)).until(() -> {
            http.get("/method");
            return !circuit.isClosed();
        });
        assertThat(http.status(path)).as("free in process").isEqualTo(200);
    }

    /** The counters the in-process fallback holds. */
    private static long countersInProcess(ConfigurableApplicationContext app) {
        Map<?, ?> whileOpen = (Map<?, ?>) app.getBean(RateLimitStore.class).describe().details().get("whileOpen");
        return ((Number) whileOpen.get("counters")).longValue();
    }

    private HttpProbe startAndKillRedis(String... properties) {
        ConfigurableApplicationContext app = env.start(properties);
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        env.redis().stop();
        CircuitBreaker circuit = app.getBean(CircuitBreaker.class);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            http.get("/method");
            return !circuit.isClosed();
        });
        return http;
    }
}
