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

/**
 * How the Redis store uses its connection: several limits of one request on the connection it already
 * has (no new one per call), scripts loaded again when Redis lost them, and the client's command timeout
 * honoured when Redis hangs.
 */
class RedisRateLimitStoreConnectionTest {

    private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);

    private RedisServerProcess redis;
    private LettuceConnectionFactory factory;
    private RedisRateLimitStore store;

    @BeforeEach
    void start() {
        redis = RedisServerProcess.start();
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
                LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
        factory.afterPropertiesSet();
        factory.start();
        store = new RedisRateLimitStore(new StringRedisTemplate(factory));
    }

    @AfterEach
    void stop() {
        factory.destroy();
        redis.close();
    }

    @Test
    void severalLimitsOfARequestGoOnTheSharedConnectionWithoutOpeningOthers() {
        store.acquire(List.of(limit("warm-up")));
        long connectionsBefore = connectionsReceived();

        for (int i = 0; i < 50; i++) {
            List<Decision> decisions = store.acquire(List.of(limit("user:" + i), limit("ip"), limit("global")));
            assertThat(decisions).hasSize(3).allMatch(Decision::allowed);
        }

        assertThat(connectionsReceived() - connectionsBefore).as("connections opened by 50 requests").isZero();
        assertThat(redis.commands().hget("ip", "count")).isEqualTo("50");
    }

    @Test
    void scriptsFlushedFromRedisAreLoadedAgain() {
        assertThat(store.acquire(List.of(limit("a"), limit("b")))).allMatch(Decision::allowed);
        redis.commands().scriptFlush();

        assertThat(store.acquire(List.of(limit("a"), limit("b")))).allMatch(Decision::allowed);
        assertThat(redis.commands().hget("a", "count")).isEqualTo("2");
    }

    @Test
    void aHungRedisFailsTheDecisionWithinTheCommandTimeout() {
        store.acquire(List.of(limit("warm-up")));
        redis.commands().clientPause(2_000);

        long started = System.nanoTime();
        assertThatThrownBy(() -> store.acquire(List.of(limit("a"), limit("b"))))
                .isInstanceOf(QueryTimeoutException.class);
        Duration waited = Duration.ofNanos(System.nanoTime() - started);

        assertThat(waited).isGreaterThanOrEqualTo(COMMAND_TIMEOUT.minusMillis(50)).isLessThan(Duration.ofMillis(1_500));
    }

    private static CounterRequest limit(String key) {
        return new CounterRequest(key, Algorithm.FIXED_WINDOW, 1_000, 60_000);
    }

    private long connectionsReceived() {
        String stats = redis.commands().info("stats");
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("total_connections_received:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        throw new IllegalStateException("INFO stats has no total_connections_received");
    }
}
