package dev.ratelimit.interceptor.internal.store.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.FailurePolicy;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.LimiterRedisClient;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The failover store on a real Redis that the test kills, with the real in-process store behind it. */
class FailoverRateLimitStoreTest {

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final RedisURI server = RedisURI.create("127.0.0.1", redis.port());
    private final RedisClient client = RedisClient.create(server);
    /** As the limiter's own connection: commands refused at once while disconnected. */
    private final LimiterRedisConnection connection = new LimiterRedisConnection(() -> {
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        return LimiterRedisClient.of(client, server);
    }, ShippedDefaults.SILENCE, ShippedDefaults.MAX_WAIT, client::shutdown);
    private final CircuitBreaker circuit = new CircuitBreaker(2, "testing", Clock.systemUTC());
    private final MemoryRateLimitStore local = new MemoryRateLimitStore(Clock.systemUTC(), 100);

    @AfterEach
    void stop() {
        connection.destroy();
        redis.close();
    }

    @Test
    void decidesOnRedisWhileItAnswersAndInProcessAfterwards() {
        FailoverRateLimitStore store = store(FailurePolicy.LOCAL, local, 1);
        assertThat(admitted(store, "k", 5, 8)).isEqualTo(5);
        assertThat(local.size()).as("nothing decided in process while Redis answers").isZero();

        redis.stop();

        assertThat(admitted(store, "k", 5, 8)).as("a fresh counter in process").isEqualTo(5);
        assertThat(circuit.isClosed()).isFalse();
    }

    @Test
    void inProcessEachInstanceAdmitsItsShareOfTheLimitAndAtLeastOne() {
        FailoverRateLimitStore store = store(FailurePolicy.LOCAL, local, 4);
        redis.stop();

        assertThat(admitted(store, "shared", 10, 20)).isEqualTo(2);
        assertThat(admitted(store, "tiny", 3, 20)).isEqualTo(1);
        assertThat(Stores.decide(store, request("shared", 10)).count()).isEqualTo(2);
    }

    @Test
    void aFloodOfIdentitiesDuringAnOutageStaysWithinTheInProcessCap() {
        FailoverRateLimitStore store = store(FailurePolicy.LOCAL, local, 1);
        redis.stop();

        long admitted = IntStream.range(0, 1_000)
                .filter(i -> Stores.decide(store, request("flood-" + i, 1)).allowed()).count();

        assertThat(admitted).isEqualTo(1_000);
        assertThat(local.size()).isEqualTo(100);
    }

    @Test
    void openLetsTheRequestPassAndClosedRefusesItUntilTheNextProbe() {
        redis.stop();

        assertThat(store(FailurePolicy.OPEN, null, 1).acquire(List.of(request("k", 5))))
                .isInstanceOfSatisfying(StoreResult.NotDecided.class, open -> assertThat(open.refuse()).isFalse());
        assertThat(store(FailurePolicy.CLOSED, null, 1).acquire(List.of(request("k", 5))))
                .isInstanceOfSatisfying(StoreResult.NotDecided.class, closed -> {
                    assertThat(closed.refuse()).isTrue();
                    assertThat(closed.retryAfter()).isEqualTo(Duration.ofSeconds(3));
                });
    }

    @Test
    void anInProcessStoreIsNeededInLocalModeOnly() {
        assertThatThrownBy(() -> store(FailurePolicy.LOCAL, null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store(FailurePolicy.OPEN, local, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store(FailurePolicy.LOCAL, local, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private FailoverRateLimitStore store(FailurePolicy policy, MemoryRateLimitStore inProcess, int instances) {
        return new FailoverRateLimitStore(new RedisRateLimitStore(connection),
                circuit, policy, inProcess, instances, Duration.ofSeconds(3));
    }

    private static long admitted(FailoverRateLimitStore store, String key, long limit, int attempts) {
        return IntStream.range(0, attempts).mapToObj(i -> Stores.decide(store, request(key, limit)))
                .filter(Decision::allowed).count();
    }

    private static CounterRequest request(String key, long limit) {
        return new CounterRequest("test:" + key, Algorithm.FIXED_WINDOW, limit, 60_000);
    }
}
