package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.fixture.SettledCostController;
import dev.ratelimit.interceptor.rule.RuleId;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Costs settled after the response ({@code costFromResponse}, {@link SettledCostController}), on both
 * algorithms that settle, run by each test class that starts instances on a store: one Redis, a Redis
 * Cluster, the in-process store. The responses say what each request used; a response reaches its client
 * before its settlement reaches the store, so the tests wait for what the store says.
 */
public interface SettledCostsContract {

    int CLIENTS = 64;
    Duration SETTLED = Duration.ofSeconds(30);
    long DAY_MILLIS = Duration.ofDays(1).toMillis();

    /** The running instances of the fixture app, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    /**
     * 64 clients, 3 requests each over the instances, estimated at 2 and using 0 to 5 units at random (said
     * through {@code ResponseCost} on the fixed window, a header on the token bucket): every one runs, and
     * the units charged are exactly the sum of what the responses said.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "TOKEN_BUCKET"})
    default void theUnitsChargedAreTheSumOfTheCostsTheResponsesReported(Algorithm algorithm) throws Exception {
        String user = "ursula-" + algorithm + "-" + System.nanoTime();
        String path = SettledCostController.path("roomy", algorithm) + "?usercode=" + user + "&units=";
        List<HttpProbe> probes = probes();
        AtomicLong reported = new AtomicLong();

        int ran = ConcurrentClients.admitted(CLIENTS, 3, thread -> {
            long units = ThreadLocalRandom.current().nextLong(6);
            HttpResponse<String> response = probes.get(thread % probes.size()).get(path + units);
            assertThat(response.statusCode()).isEqualTo(200);
            reported.addAndGet(Long.parseLong(response.body()));
            return true;
        });

        assertThat(ran).isEqualTo(CLIENTS * 3);
        RuleId rule = SettledCostController.rule("roomy", algorithm);
        Awaitility.await("the units charged are the " + reported + " reported").atMost(SETTLED)
                .until(() -> allowance(rule, user).remaining() == SettledCostController.ROOMY - reported.get());
    }

    /**
     * A response that says no whole number of 0 or more (text, a negative or a fractional number, or
     * nothing at all) keeps the estimate its request took.
     */
    @Test
    default void aResponseThatSaysNoWholeNumberKeepsTheEstimate() {
        String user = "gus-" + System.nanoTime();
        String path = SettledCostController.path("roomy", Algorithm.TOKEN_BUCKET) + "?usercode=" + user;
        HttpProbe http = probes().get(0);
        for (String units : List.of("&units=lots", "&units=-3", "&units=2.5", "")) {
            assertThat(http.status(path + units)).as(units).isEqualTo(200);
        }
        assertThat(http.get(path + "&units=7").body()).isEqualTo("7");

        Awaitility.await("4 estimates and 7 units charged").atMost(SETTLED).until(() -> allowance(
                SettledCostController.rule("roomy", Algorithm.TOKEN_BUCKET), user).remaining()
                == SettledCostController.ROOMY - 4 * SettledCostController.ROOMY_ESTIMATE - 7);
    }

    /**
     * A budget of 20 a day, each request estimated at 1 and using 1 to 5 units: 64 clients, 3 requests
     * each over the instances. What ran may end in debt (requests already running when the budget ran out
     * used more than their estimate), but once it is spent no request starts: 64 more are all refused,
     * none reaches the handler, and each is told the debt's true wait: the fixed window's first window with
     * room after the debt is paid off, the token bucket's time to earn all of it back but the burst less one.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "TOKEN_BUCKET"})
    default void noRequestStartsWhileTheBudgetIsSpentAndADebtIsToldItsTrueWait(Algorithm algorithm) throws Exception {
        String user = "dora-" + algorithm + "-" + System.nanoTime();
        String path = SettledCostController.path("tight", algorithm) + "?usercode=" + user + "&units=";
        List<HttpProbe> probes = probes();
        AtomicLong used = new AtomicLong();
        long start = System.currentTimeMillis();
        ConcurrentClients.admitted(CLIENTS, 3, thread -> {
            long units = 1 + ThreadLocalRandom.current().nextLong(5);
            HttpResponse<String> response = probes.get(thread % probes.size()).get(path + units);
            assertThat(response.statusCode()).isIn(200, 429);
            if (response.statusCode() == 200) {
                used.addAndGet(units);
            }
            return response.statusCode() == 200;
        });
        long debtWait = debtWait(algorithm, used.get());
        RuleId rule = SettledCostController.rule("tight", algorithm);
        Awaitility.await("the whole debt of " + used + " units charged").atMost(SETTLED)
                .until(() -> allowance(rule, user).retryAfter().toMillis() > debtWait - elapsed(start));
        int entered = Occupancy.of(user).entered();

        int ranAfter = ConcurrentClients.admitted(CLIENTS, 1, thread -> {
            HttpResponse<String> response = probes.get(thread % probes.size()).get(path + 1);
            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()) * 1000)
                    .as("Retry-After of a debt of %d units", used.get())
                    .isBetween(debtWait - elapsed(start) - 1000, debtWait + 1000);
            return false;
        });

        assertThat(ranAfter).isZero();
        assertThat(Occupancy.of(user).entered()).as("requests that reached the handler after").isEqualTo(entered);
    }

    /**
     * How long a debt of {@code used} units on the tight budget makes a request of one unit wait, from the
     * first request of the user: until the fixed window whose start has paid off enough, or the token bucket
     * has earned back all but the burst less one.
     */
    private static long debtWait(Algorithm algorithm, long used) {
        long limit = SettledCostController.TIGHT;
        return algorithm == Algorithm.FIXED_WINDOW
                ? -Math.floorDiv(-(used + 1 - limit), limit) * DAY_MILLIS
                : (used + 1 - limit) * DAY_MILLIS / limit;
    }

    private static long elapsed(long start) {
        return System.currentTimeMillis() - start;
    }

    private Allowance allowance(RuleId rule, String user) {
        return apps().get(0).getBean(RateLimitService.class).peek(rule, user).orElseThrow();
    }

    private List<HttpProbe> probes() {
        return apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
    }
}
