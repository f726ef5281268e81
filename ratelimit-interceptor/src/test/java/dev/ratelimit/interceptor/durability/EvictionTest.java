package dev.ratelimit.interceptor.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A full Redis under {@code allkeys-lru} (what many caches run) evicts whatever it likes, the config hash
 * among it: the instances warn about the policy at start-up, keep deciding by the operator's rules while
 * the flood lasts, and put the hash back.
 */
@ExtendWith(OutputCaptureExtension.class)
class EvictionTest {

    /** Values this large leave room for a few keys only, so that LRU's sample holds the hash soon. */
    private static final int FLOOD_VALUE_BYTES = 512 * 1024;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps(List.of("--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru",
            "--notify-keyspace-events", "Ee"));

    @Test
    void aFloodThatEvictsTheHashChangesNoDecision(CapturedOutput output) throws Exception {
        List<HttpProbe> instances = OperatorRules.startTwo(env);
        Awaitility.await("the start-up warning about the policy").atMost(Duration.ofSeconds(30))
                .until(() -> output.getOut().contains("Redis runs with maxmemory-policy allkeys-lru"));

        RedisClient client = RedisClient.create("redis://127.0.0.1:" + env.redis().port());
        try (StatefulRedisPubSubConnection<String, String> events = client.connectPubSub();
             DecisionWatch watch = new DecisionWatch(instances, OperatorRules.expected(true))) {
            CountDownLatch hashEvicted = new CountDownLatch(1);
            events.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String key) {
                    if (key.equals(OperatorRules.HASH)) {
                        hashEvicted.countDown();
                    }
                }
            });
            events.sync().subscribe("__keyevent@0__:evicted");
            watch.awaitResponses(200);

            RedisCommands<String, String> flood = client.connect().sync();
            String value = "x".repeat(FLOOD_VALUE_BYTES);
            for (int i = 0; hashEvicted.getCount() > 0 && i < 10_000; i++) {
                flood.set("flood:" + i, value);
            }

            assertThat(hashEvicted.await(0, TimeUnit.SECONDS)).as("the flood evicted the config hash").isTrue();
            List<String> left = flood.keys("flood:*");
            if (!left.isEmpty()) {
                flood.del(left.toArray(String[]::new));
            }
            Duration back = OperatorRules.awaitBack(env.redis(), true, RedisLossTest.BACK_WITHIN);
            watch.awaitResponses(300);
            System.out.printf("allkeys-lru flood: the config hash evicted, back %d ms after the flood ended; "
                    + "%d responses checked%n", back.toMillis(), watch.responses());
            assertThat(watch.violations()).isEmpty();
        } finally {
            client.shutdown();
        }
    }
}
