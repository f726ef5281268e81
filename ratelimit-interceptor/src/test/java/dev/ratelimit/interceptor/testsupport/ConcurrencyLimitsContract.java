package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.fixture.ConcurrencyController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Limits of requests running at once ({@code algorithm = CONCURRENCY}, {@link ConcurrencyController}),
 * run by each test class that starts instances on a store: one Redis, a Redis Cluster, the in-process
 * store. The handlers count who is inside ({@link Occupancy}) in the test's JVM, so the concurrency seen
 * is the one across every instance.
 */
public interface ConcurrencyLimitsContract {

    int CLIENTS = 64;
    Duration SETTLES = Duration.ofSeconds(30);

    /** The running instances of the fixture app, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    /**
     * 64 clients at once over the instances, their requests held inside the handler until every other
     * one has been answered: exactly the limit get in, and the others are refused at once with a
     * {@code Retry-After} and no rate limit fields. Once they end their slots are free: three rounds for
     * one user admit the limit each.
     */
    @Test
    default void exactlyTheLimitRunAtOnceAcrossInstancesAndEndingFreesTheSlots() throws Exception {
        String user = "cora-" + System.nanoTime();
        for (int round = 0; round < 3; round++) {
            String run = user + "-" + round;
            GatedBurst.Round burst = GatedBurst.send(probes(), CLIENTS,
                    "/concurrent/gated?usercode=" + user + "&run=" + run, run);

            assertThat(burst.inside()).as("round %d: inside at once", round).isEqualTo(ConcurrencyController.LIMIT);
            assertThat(burst.most()).as("round %d: the most inside at once", round)
                    .isEqualTo(ConcurrencyController.LIMIT);
            assertThat(burst.refused()).hasSize(CLIENTS - ConcurrencyController.LIMIT).allSatisfy(response -> {
                assertThat(response.statusCode()).isEqualTo(429);
                assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(response.headers().firstValue("RateLimit")).isEmpty();
                assertThat(response.headers().firstValue("RateLimit-Policy")).isEmpty();
            });
            assertThat(burst.admitted()).as("round %d: admitted", round).isEqualTo(ConcurrencyController.LIMIT);
            awaitFreeSlots(user);
        }
    }

    /**
     * 64 clients over the instances, four requests each, on a handler that sleeps: never more than the
     * limit inside at once, and every slot free again at the end, no lease left held on any instance.
     */
    @Test
    default void aHandlerThatSleepsNeverHasMoreThanTheLimitInside() throws Exception {
        String user = "seth-" + System.nanoTime();
        Occupancy inside = Occupancy.of(user);
        List<HttpProbe> probes = probes();
        String path = "/concurrent/sleeping?usercode=" + user + "&run=" + user;

        int admitted = ConcurrentClients.admitted(CLIENTS, 4, thread -> {
            int status = probes.get(thread % probes.size()).status(path);
            assertThat(status).isIn(200, 429);
            return status == 200;
        });

        assertThat(admitted).as("requests run").isGreaterThanOrEqualTo(ConcurrencyController.LIMIT);
        assertThat(inside.most()).as("the most inside at once").isEqualTo(ConcurrencyController.LIMIT);
        awaitFreeSlots(user);
    }

    /**
     * A request answered asynchronously holds its slot after its servlet thread has returned, until its
     * answer is written; one whose answer never comes frees it when it times out, one whose answer fails
     * when it fails.
     */
    @Test
    default void anAsynchronousRequestHoldsItsSlotUntilItEndsHoweverItEnds() throws Exception {
        String user = "alma-" + System.nanoTime();
        GatedBurst.Round burst = GatedBurst.send(probes(), 8, "/concurrent/async?usercode=" + user + "&run=" + user,
                user);

        assertThat(burst.inside()).as("inside, their servlet threads long returned")
                .isEqualTo(ConcurrencyController.LIMIT);
        assertThat(burst.most()).isEqualTo(ConcurrencyController.LIMIT);
        assertThat(burst.refused()).extracting(HttpResponse::statusCode).containsOnly(429);
        assertThat(burst.admitted()).isEqualTo(ConcurrencyController.LIMIT);
        awaitFreeSlots(user);

        HttpProbe http = probes().get(0);
        assertThat(http.status("/concurrent/unanswered?usercode=" + user)).as("timed out").isEqualTo(503);
        assertThat(http.status("/concurrent/failing?usercode=" + user)).as("failed").isEqualTo(500);
        awaitFreeSlots(user);
    }

    private List<HttpProbe> probes() {
        return apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
    }

    /**
     * Every slot of the user free again, as the store says, and no lease left held by any instance: a
     * request's end reaches the store just after its response.
     */
    private void awaitFreeSlots(String user) {
        RateLimitService service = apps().get(0).getBean(RateLimitService.class);
        Awaitility.await("every slot of " + user + " free").atMost(SETTLES).until(() -> service.peek(
                ConcurrencyController.RULE, user).map(Allowance::remaining).orElse(-1L) == ConcurrencyController.LIMIT);
        Awaitility.await("no lease held").atMost(SETTLES).until(() -> apps().stream()
                .allMatch(app -> app.getBean(HeldLeases.class).size() == 0));
    }
}
