package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** Two app instances on one Redis admit exactly the limit, no more and no less, under 64 concurrent clients. */
class TwoInstanceConcurrencyTest {

    private static final int THREADS_PER_INSTANCE = 32;
    private static final int REQUESTS_PER_THREAD = 5;
    private static final int LIMIT = 50; // LimitedController.user

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        first = FixtureApplication.start(redis.port());
        second = FixtureApplication.start(redis.port());
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        redis.close();
    }

    @Test
    void admitsExactlyTheLimitAcrossInstances() throws Exception {
        List<HttpProbe> instances = List.of(new HttpProbe(FixtureApplication.port(first)),
                new HttpProbe(FixtureApplication.port(second)));
        int threads = THREADS_PER_INSTANCE * instances.size();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<int[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            HttpProbe instance = instances.get(t % instances.size());
            results.add(pool.submit(() -> {
                go.await();
                int[] counts = new int[2];
                for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                    int status = instance.status("/user?usercode=racer");
                    if (status != 200 && status != 429) {
                        throw new AssertionError("unexpected status " + status);
                    }
                    counts[status == 200 ? 0 : 1]++;
                }
                return counts;
            }));
        }
        go.countDown();
        int admitted = 0;
        int rejected = 0;
        for (Future<int[]> result : results) {
            int[] counts = result.get();
            admitted += counts[0];
            rejected += counts[1];
        }
        pool.shutdown();

        assertThat(admitted).isEqualTo(LIMIT);
        assertThat(rejected).isEqualTo(threads * REQUESTS_PER_THREAD - LIMIT);
        assertThat(redis.commands().hget("ratelimit:counter:fixture:LimitedController.user:USER:racer", "count"))
                .isEqualTo(Integer.toString(threads * REQUESTS_PER_THREAD));
    }
}
