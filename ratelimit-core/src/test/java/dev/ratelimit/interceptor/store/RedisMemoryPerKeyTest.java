package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code MEMORY USAGE} of one counter key per algorithm, as docs/limits.md (Algorithms) states it: constant for three
 * algorithms, growing with the requests in the window for the sliding log. Fails if a script starts
 * to keep more than it should.
 */
class RedisMemoryPerKeyTest {

    private static final Logger log = LoggerFactory.getLogger(RedisMemoryPerKeyTest.class);
    private static final String KEY = "ratelimit:counter:shop:OrderController.create:USER:customer-0001";

    private static RedisServerProcess redis;
    private static RedisRateLimitStore store;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        store = new RedisRateLimitStore(redis.connection());
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void constantSizeAlgorithmsKeepAFewDozenBytesPerKey() {
        for (Algorithm algorithm : List.of(Algorithm.FIXED_WINDOW, Algorithm.SLIDING_WINDOW, Algorithm.TOKEN_BUCKET)) {
            long afterOne = bytesAfter(algorithm, 1, 1_000);
            long afterMany = bytesAfter(algorithm, 900, 1_000);
            log.info("MEMORY USAGE {}: {} bytes after 1 request, {} after 900", algorithm, afterOne, afterMany);
            assertThat(afterMany).as("%s does not grow", algorithm).isLessThanOrEqualTo(afterOne + 8);
            assertThat(afterMany).as("%s", algorithm).isLessThan(200);
        }
    }

    @Test
    void theSlidingLogGrowsWithTheRequestsInItsWindow() {
        long previous = 0;
        for (int requests : new int[] {1, 10, 100, 1_000}) {
            long bytes = bytesAfter(Algorithm.SLIDING_LOG, requests, 1_000);
            log.info("MEMORY USAGE SLIDING_LOG: {} bytes after {} requests ({} per request)", bytes, requests,
                    bytes / requests);
            assertThat(bytes).isGreaterThan(previous);
            assertThat(bytes / requests).as("after %d requests", requests).isLessThan(requests == 1 ? 200 : 160);
            previous = bytes;
        }
    }

    private static long bytesAfter(Algorithm algorithm, int requests, long limit) {
        redis.commands().del(KEY);
        for (int i = 0; i < requests; i++) {
            store.acquire(List.of(new CounterRequest(KEY, algorithm, limit, 3_600_000)));
        }
        return redis.commands().memoryUsage(KEY);
    }
}
