package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.LoginController;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code countWhen} scenarios on the fixture's logins ({@link LoginController}), against one or more
 * instances: successful logins never use the quota, and a concurrent burst of wrong passwords runs
 * exactly {@link LoginController#FAILURES} of them, however the requests are spread over the instances.
 */
public final class FailedLogins {

    private static final int THREADS = 64;
    private static final int ATTEMPTS_PER_THREAD = 3;
    private static final Duration REFUNDS_ARRIVE = Duration.ofSeconds(10);

    private final List<ConfigurableApplicationContext> apps;
    private final List<HttpProbe> instances;

    public FailedLogins(List<ConfigurableApplicationContext> apps) {
        this.apps = List.copyOf(apps);
        this.instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
    }

    /** Successes first, then a burst of failures: exactly the limit of failures runs. */
    public void assertExactlyTheFailuresAreCounted(Algorithm algorithm, String user) throws Exception {
        String login = LoginController.path(algorithm) + "?usercode=" + user;
        long refunds = refundsAnswered();
        int successes = 3 * LoginController.FAILURES;
        for (int i = 0; i < successes; i++) {
            assertThat(instance(i).post(login + "&ok=true").statusCode()).as("successful login %d", i).isEqualTo(200);
        }
        awaitRefunds(refunds + successes);

        int failuresRun = ConcurrentClients.admitted(THREADS, ATTEMPTS_PER_THREAD, thread -> {
            int status = instance(thread).post(login + "&ok=false").statusCode();
            assertThat(status).isIn(401, 429);
            return status == 401;
        });

        assertThat(failuresRun).as("wrong passwords that ran").isEqualTo(LoginController.FAILURES);
        assertThat(instance(0).post(login + "&ok=true").statusCode())
                .as("a login once the failures are used up").isEqualTo(429);
    }

    /**
     * Successes and failures at once: successes hold units while they run, so the burst may run fewer
     * than {@link LoginController#FAILURES} failures, but never more; what the successes held comes back,
     * so failures sent one by one afterwards make up exactly the rest.
     */
    public void assertAMixedBurstCountsOnlyFailures(Algorithm algorithm, String user) throws Exception {
        String login = LoginController.path(algorithm) + "?usercode=" + user;
        long refunds = refundsAnswered();
        AtomicInteger failuresRun = new AtomicInteger();
        int run = ConcurrentClients.admitted(THREADS, ATTEMPTS_PER_THREAD, thread -> {
            boolean ok = thread % 2 == 0;
            int status = instance(thread / 2).post(login + "&ok=" + ok).statusCode();
            assertThat(status).isIn(ok ? 200 : 401, 429);
            if (status == 401) {
                failuresRun.incrementAndGet();
            }
            return status != 429;
        });
        assertThat(failuresRun.get()).as("failures run during the burst").isBetween(0, LoginController.FAILURES);
        awaitRefunds(refunds + run - failuresRun.get());

        int afterwards = 0;
        while (instance(afterwards).post(login + "&ok=false").statusCode() == 401) {
            afterwards++;
            assertThat(failuresRun.get() + afterwards).as("failures run").isLessThanOrEqualTo(LoginController.FAILURES);
        }
        assertThat(failuresRun.get() + afterwards).as("failures run in all").isEqualTo(LoginController.FAILURES);
    }

    /**
     * The bound on refused successes, exactly: of {@link LoginController#FAILURES} + 1 successful logins sent
     * at once and held at a gate while they run, {@code FAILURES} get in, each holding its unit, and the last
     * is refused though nothing failed; once they end, their units come back and logins are admitted again.
     */
    public void assertRunningSuccessesHoldTheirUnitsUntilTheyEnd(String user) throws Exception {
        // A gate of its own: the runs of every test class in this JVM share Occupancy's registry.
        String run = "gated-" + user + "-" + System.nanoTime();
        String login = "/login/gated?usercode=" + user + "&run=" + run;
        long refunds = refundsAnswered();

        GatedBurst.Round burst = GatedBurst.send(instances, LoginController.FAILURES + 1, login, run);

        assertThat(burst.inside()).as("successful logins running at once").isEqualTo(LoginController.FAILURES);
        assertThat(burst.refused()).as("the login sent while they ran").singleElement()
                .satisfies(response -> assertThat(response.statusCode()).isEqualTo(429));
        assertThat(burst.admitted()).isEqualTo(LoginController.FAILURES);
        awaitRefunds(refunds + LoginController.FAILURES);
        for (int i = 0; i < LoginController.FAILURES; i++) {
            assertThat(instance(i).get(login).statusCode()).as("login %d once they ended", i).isEqualTo(200);
        }
    }

    private HttpProbe instance(int index) {
        return instances.get(index % instances.size());
    }

    /**
     * A refund is sent once the response is written, so a client may read its response before the refund
     * reaches Redis: the test waits for the replies to the refunds it caused. The in-process store
     * refunds at once.
     */
    public void awaitRefunds(long expected) {
        Awaitility.await("refunds answered by Redis").atMost(REFUNDS_ARRIVE).until(() -> {
            long answered = refundsAnswered();
            return answered < 0 || answered >= expected;
        });
    }

    /** The refunds Redis answered on every instance, or -1 on the in-process store. */
    public long refundsAnswered() {
        long sum = 0;
        for (ConfigurableApplicationContext app : apps) {
            Object answered = app.getBean(RateLimitStore.class).describe().details().get("refundsAnswered");
            if (!(answered instanceof Long count)) {
                return -1;
            }
            sum += count;
        }
        return sum;
    }
}
