package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The several limits of one request, sent together on Lettuce's shared connection. */
class RedisRateLimitStoreTest {

    private static final long TIMEOUT_MILLIS = 100;

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final LettuceConnectionFactory connection = new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(TIMEOUT_MILLIS)).build());
    private RedisRateLimitStore store;

    @BeforeEach
    void connect() {
        connection.afterPropertiesSet();
        connection.start();
        store = new RedisRateLimitStore(new StringRedisTemplate(connection));
    }

    @AfterEach
    void stop() {
        redis.commands().ping(); // waits for a pause to end
        connection.destroy();
        redis.close();
    }

    @Test
    void severalLimitsOfARequestAreDecidedTogetherWithoutANewConnection() {
        store.acquire(requests("warm-up"));
        long connectionsBefore = connectionsReceived();

        for (int i = 0; i < 50; i++) {
            List<Decision> decisions = store.acquire(requests("user-" + (i % 10)));
            assertThat(decisions).extracting(Decision::limit).containsExactly(10L, 3L, 1000L);
        }

        assertThat(connectionsReceived()).isEqualTo(connectionsBefore);
        // The sixth request of user-0: within 10 and 1000, past the bucket of 3.
        assertThat(store.acquire(requests("user-0"))).extracting(Decision::allowed).containsExactly(true, false, true);
    }

    @Test
    void scriptsThatRedisForgotAreLoadedAgainForABatchToo() {
        redis.commands().scriptFlush();

        assertThat(store.acquire(requests("after-flush"))).extracting(Decision::allowed).containsOnly(true);
    }

    @Test
    void aBatchThatRedisDoesNotAnswerInTimeFailsAfterTheTimeout() {
        store.acquire(requests("warm-up"));
        redis.commands().clientPause(1_000);

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.acquire(requests("paused"))).isInstanceOf(QueryTimeoutException.class);
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(TIMEOUT_MILLIS - 5, TIMEOUT_MILLIS + 400);
    }

    private static List<CounterRequest> requests(String identity) {
        return List.of(new CounterRequest("test:fw:" + identity, Algorithm.FIXED_WINDOW, 10, 60_000),
                new CounterRequest("test:tb:" + identity, Algorithm.TOKEN_BUCKET, 3, 60_000),
                new CounterRequest("test:sw:" + identity, Algorithm.SLIDING_WINDOW, 1000, 60_000));
    }

    private long connectionsReceived() {
        return redis.commands().info("stats").lines().filter(line -> line.startsWith("total_connections_received:"))
                .map(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).strip())).findFirst().orElseThrow();
    }
}
