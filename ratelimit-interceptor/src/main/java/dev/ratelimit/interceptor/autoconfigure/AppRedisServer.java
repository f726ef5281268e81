package dev.ratelimit.interceptor.autoconfigure;

import java.util.List;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The app's Redis as Spring Boot's own Redis auto-configuration describes it ({@code spring.data.redis.*}, or
 * a service connection such as a Testcontainers container): read only when the app uses Spring Boot's Redis,
 * whose classes this one needs.
 */
final class AppRedisServer {

    private AppRedisServer() {
    }

    /**
     * @param appFactory the app's connection factory, whose client settings the limiter copies when it was built
     *                   from the same details; {@code null} when the app has none or another kind
     */
    static LimiterRedisServer of(DataRedisConnectionDetails details, LettuceConnectionFactory appFactory) {
        return new LimiterRedisServer(server(details), details.getSslBundle() != null,
                appFactory != null && sameServer(appFactory, details) ? appFactory.getClientConfiguration() : null,
                null, "the app's Redis connection details");
    }

    /** An app that built its own standalone or socket factory, not from the details, is not second-guessed. */
    private static boolean sameServer(LettuceConnectionFactory app, DataRedisConnectionDetails details) {
        if (app.getSocketConfiguration() != null) {
            return false;
        }
        if (app.isClusterAware() || app.isRedisSentinelAware() || details.getSentinel() != null
                || details.getCluster() != null || details.getMasterReplica() != null) {
            return true;
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        return standalone != null && standalone.getHost().equals(app.getHostName()) && standalone.getPort() == app.getPort();
    }

    /** The server as Spring Boot's own Redis auto-configuration reads it: sentinel, cluster, master/replica or one server. */
    private static RedisConfiguration server(DataRedisConnectionDetails details) {
        RedisPassword password = RedisPassword.of(details.getPassword());
        if (details.getSentinel() != null) {
            DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            RedisSentinelConfiguration config = new RedisSentinelConfiguration();
            config.master(sentinel.getMaster());
            config.setSentinels(nodes(sentinel.getNodes()));
            config.setSentinelUsername(sentinel.getUsername());
            config.setSentinelPassword(RedisPassword.of(sentinel.getPassword()));
            config.setUsername(details.getUsername());
            config.setPassword(password);
            config.setDatabase(sentinel.getDatabase());
            return config;
        }
        if (details.getCluster() != null) {
            RedisClusterConfiguration config = new RedisClusterConfiguration();
            config.setClusterNodes(nodes(details.getCluster().getNodes()));
            config.setUsername(details.getUsername());
            config.setPassword(password);
            return config;
        }
        if (details.getMasterReplica() != null) {
            List<DataRedisConnectionDetails.Node> nodes = details.getMasterReplica().getNodes();
            RedisStaticMasterReplicaConfiguration config =
                    new RedisStaticMasterReplicaConfiguration(nodes.get(0).host(), nodes.get(0).port());
            nodes.subList(1, nodes.size()).forEach(node -> config.node(node.host(), node.port()));
            config.setUsername(details.getUsername());
            config.setPassword(password);
            config.setDatabase(details.getStandalone().getDatabase());
            return config;
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        RedisStandaloneConfiguration config = new RedisStandaloneConfiguration(standalone.getHost(), standalone.getPort());
        config.setDatabase(standalone.getDatabase());
        config.setUsername(details.getUsername());
        config.setPassword(password);
        return config;
    }

    private static List<RedisNode> nodes(List<DataRedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(node -> new RedisNode(node.host(), node.port())).toList();
    }
}
