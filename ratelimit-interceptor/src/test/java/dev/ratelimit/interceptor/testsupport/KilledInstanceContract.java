package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.fixture.ConcurrencyController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.internal.instance.InstanceDirectory;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An instance killed ({@code SIGKILL}, a JVM of its own) while its requests hold every slot of a
 * concurrency limit, as a crash or an OOM kill ends it: nothing runs on its way out, so nothing releases
 * the slots. While it lives its heartbeat tells the leases it holds, and they stay taken past a whole lease
 * (its renewals keep them); once it is dead they are free within a lease, with the shipped lease. Run by
 * each test class that starts instances on a Redis: one server, a Cluster. Prints how long that took.
 */
public interface KilledInstanceContract {

    String KILLED_USER = "kim";

    /** The running instances of the fixture app in this JVM, all on the Redis under test. */
    List<ConfigurableApplicationContext> apps();

    /** Starts another instance of the fixture app, a JVM of its own, on the same Redis. */
    ChildApp startChild();

    @Test
    default void theSlotsOfAnInstanceKilledWhileHoldingThemAreFreeWithinALease() throws Exception {
        ConfigurableApplicationContext app = apps().get(0);
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        RateLimitService service = app.getBean(RateLimitService.class);
        Duration lease = ShippedDefaults.LEASE;
        ExecutorService senders = Executors.newFixedThreadPool(ConcurrencyController.LIMIT);
        long killedAt;
        try (ChildApp child = startChild()) {
            // Held at a gate nobody opens in the child's JVM: the client gives up after its timeout, the
            // handler does not.
            for (int i = 0; i < ConcurrencyController.LIMIT; i++) {
                senders.submit(() -> child.http().get("/concurrent/gated?usercode=" + KILLED_USER + "&run=child"));
            }
            Awaitility.await("every slot taken by the child").atMost(Duration.ofSeconds(30))
                    .until(() -> freeSlots(service) == 0);
            InstanceDirectory directory = app.getBean(InstanceDirectory.class);
            Awaitility.await("the child's heartbeat tells the leases it holds").atMost(Duration.ofSeconds(20))
                    .until(() -> directory.all().stream().anyMatch(instance -> instance.port() == child.port()
                            && instance.leases() == ConcurrencyController.LIMIT));
            Awaitility.await("the slots held for more than a lease").during(lease.plusSeconds(2))
                    .atMost(lease.plusSeconds(10)).until(() -> freeSlots(service) == 0
                            && http.status("/concurrent/sleeping?usercode=" + KILLED_USER + "&run=parent") == 429);

            child.kill();
            killedAt = System.nanoTime();
        } finally {
            senders.shutdownNow();
        }
        Awaitility.await("every slot free").atMost(lease.plusSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> freeSlots(service) == ConcurrencyController.LIMIT);
        long freedAfterMillis = (System.nanoTime() - killedAt) / 1_000_000;

        System.out.printf("FIGURES killed instance (%s): its %d slots free %d ms after SIGKILL (lease %d s)%n",
                getClass().getSimpleName(), ConcurrencyController.LIMIT, freedAfterMillis, lease.toSeconds());
        assertThat(freedAfterMillis).as("free within the lease").isLessThanOrEqualTo(lease.toMillis() + 100);
        Occupancy.of("after").open();
        assertThat(http.status("/concurrent/gated?usercode=" + KILLED_USER + "&run=after")).isEqualTo(200);
    }

    private static long freeSlots(RateLimitService service) {
        return service.peek(ConcurrencyController.RULE, KILLED_USER).map(Allowance::remaining).orElseThrow();
    }
}
