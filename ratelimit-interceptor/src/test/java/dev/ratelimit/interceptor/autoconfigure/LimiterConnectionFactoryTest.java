package dev.ratelimit.interceptor.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.testsupport.ShippedProperties;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.mock.env.MockEnvironment;

/**
 * Every kind of server {@code spring.data.redis.*} describes makes the limiter's Lettuce client, with the limiter's
 * command timeout and client name on each node, before any connection is made (nothing listens on these ports).
 */
class LimiterConnectionFactoryTest {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "url | redis://127.0.0.1:1/2 | STANDALONE",
            "url | rediss://alice:secret@127.0.0.1:1 | STANDALONE",
            "url | redis-sentinel://127.0.0.1:1,127.0.0.1:2/0#primary | STANDALONE",
            "sentinel.nodes | 127.0.0.1:1,127.0.0.1:2 | STANDALONE",
            "cluster.nodes | 127.0.0.1:1,127.0.0.1:2 | CLUSTER",
            "host | 127.0.0.1 | STANDALONE"})
    void everyKindOfServerMakesAClientNamedForTheLimiter(String property, String value, String topology) {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.data.redis." + property, value)
                .withProperty("spring.data.redis.client-name", "shop")
                .withProperty("spring.data.redis.port", "1");
        if (property.startsWith("sentinel")) {
            environment.withProperty("spring.data.redis.sentinel.master", "primary");
        }
        LimiterRedisServer server = LimiterRedisServer.ofProperties(environment);
        assertThat(server.topology()).hasToString(topology);

        LimiterRedisConnection connection = LimiterConnectionFactory.create(server, ShippedProperties.DEFAULTS.redis(),
                Duration.ofSeconds(1));
        try {
            AbstractRedisClient client = connection.client();
            assertThat(client).isInstanceOf(topology.equals("CLUSTER") ? RedisClusterClient.class : RedisClient.class);
            for (RedisURI node : server.nodes()) {
                assertThat(node.getClientName()).isEqualTo("shop-ratelimit");
                assertThat(node.getTimeout()).isEqualTo(LimiterConnectionFactory.ABANDON_AFTER);
            }
            if (value.contains("127.0.0.1:2") && !topology.equals("CLUSTER")) {
                assertThat(server.nodes().get(0).getSentinels()).as("the sentinels").hasSize(2);
                assertThat(server.nodes().get(0).getSentinelMasterId()).isEqualTo("primary");
            }
        } finally {
            connection.destroy();
        }
    }
}
