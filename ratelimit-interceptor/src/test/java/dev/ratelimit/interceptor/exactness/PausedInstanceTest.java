package dev.ratelimit.interceptor.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One of two instances is stopped for 400 ms ({@code SIGSTOP}, then {@code SIGCONT}), as a
 * stop-the-world pause or a frozen container stops it, while 16 clients send one user's requests to
 * both. The replies Redis sent during the pause wait in the stopped instance's socket; when it goes on,
 * every request in flight there has outlived any wall-clock timeout, yet Redis answered each at once.
 * Exactly the limit is admitted, every round.
 */
class PausedInstanceTest {

    private static final int THREADS = 16;
    private static final int REQUESTS_PER_THREAD = 20;
    private static final long PAUSE_MILLIS = 400;

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    private static ChildApp child;
    private static List<HttpProbe> instances;
    private static final AtomicInteger round = new AtomicInteger();

    @BeforeAll
    static void start() {
        HttpProbe inProcess = new HttpProbe(FixtureApplication.port(env.start()));
        child = ChildApp.start(env.redis().port());
        instances = List.of(inProcess, child.http());
    }

    @AfterAll
    static void stop() {
        child.close();
    }

    @RepeatedTest(3)
    void exactlyTheLimitIsAdmittedAcrossAPauseOfOneInstance() throws Exception {
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=paused-" + round.incrementAndGet();
        ExecutorService clients = Executors.newFixedThreadPool(THREADS);
        CountDownLatch childAnswered = new CountDownLatch(1);
        try {
            List<Future<Integer>> admitted = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                HttpProbe instance = instances.get(t % 2);
                boolean toChild = t % 2 == 1;
                admitted.add(clients.submit(() -> {
                    int count = 0;
                    for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                        if (Statuses.admitted(instance.status(path))) {
                            count++;
                        }
                        if (toChild) {
                            childAnswered.countDown();
                        }
                    }
                    return count;
                }));
            }
            // Stopped while its clients' requests are in flight: they keep sending to it.
            assertThat(childAnswered.await(30, TimeUnit.SECONDS)).isTrue();
            child.pause();
            Thread.sleep(PAUSE_MILLIS); // the pause itself, the scenario under test
            child.resume();

            int total = 0;
            for (Future<Integer> result : admitted) {
                total += result.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).as("admitted, see %s", child.output()).isEqualTo(AlgorithmController.LIMIT);
        } finally {
            clients.shutdownNow();
        }
    }
}
