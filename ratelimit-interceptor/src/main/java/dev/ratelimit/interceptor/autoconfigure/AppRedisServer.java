package dev.ratelimit.interceptor.autoconfigure;

import io.lettuce.core.RedisURI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.RedisCredentialsProviderFactory;

/**
 * The app's Redis as Spring Boot's own Redis auto-configuration describes it ({@code spring.data.redis.*}, or
 * a service connection such as a Testcontainers container): read only when the app uses Spring Boot's Redis,
 * whose classes (and Spring Data Redis') this one needs, and which the limiter does not need otherwise.
 */
final class AppRedisServer {

    private AppRedisServer() {
    }

    /**
     * @param appFactory the app's connection factory, whose client settings the limiter copies when it was built
     *                   from the same details; {@code null} when the app has none or another kind
     */
    static LimiterRedisServer of(DataRedisConnectionDetails details, @Nullable LettuceConnectionFactory appFactory) {
        LettuceClientConfiguration app = appFactory != null && sameServer(appFactory, details)
                ? appFactory.getClientConfiguration() : null;
        boolean ssl = details.getSslBundle() != null || app != null && app.isUseSsl();
        LimiterRedisServer.Topology topology;
        List<RedisURI> nodes = new ArrayList<>();
        List<RedisURI> sentinels = new ArrayList<>();
        if (details.getSentinel() != null) {
            DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            RedisURI.Builder builder = RedisURI.builder().withSentinelMasterId(sentinel.getMaster())
                    .withDatabase(sentinel.getDatabase());
            for (DataRedisConnectionDetails.Node node : sentinel.getNodes()) {
                RedisURI sentinelNode = RedisURI.create(node.host(), node.port());
                LimiterRedisServer.authenticate(sentinelNode, sentinel.getUsername(), sentinel.getPassword());
                builder.withSentinel(sentinelNode);
                sentinels.add(sentinelNode);
            }
            nodes.add(builder.build());
            topology = LimiterRedisServer.Topology.STANDALONE;
        } else if (details.getCluster() != null) {
            details.getCluster().getNodes().forEach(node -> nodes.add(RedisURI.create(node.host(), node.port())));
            topology = LimiterRedisServer.Topology.CLUSTER;
        } else if (details.getMasterReplica() != null) {
            int database = Objects.requireNonNull(details.getStandalone(),
                    "details of a master/replica set give its database as their standalone server's")
                    .getDatabase();
            details.getMasterReplica().getNodes().forEach(node -> nodes.add(
                    RedisURI.builder().withHost(node.host()).withPort(node.port()).withDatabase(database).build()));
            topology = LimiterRedisServer.Topology.MASTER_REPLICA;
        } else {
            DataRedisConnectionDetails.Standalone standalone = Objects.requireNonNull(details.getStandalone(),
                    "details without sentinels, cluster or master/replica set describe a standalone server");
            nodes.add(RedisURI.builder().withHost(standalone.getHost()).withPort(standalone.getPort())
                    .withDatabase(standalone.getDatabase()).build());
            topology = LimiterRedisServer.Topology.STANDALONE;
        }
        for (RedisURI node : nodes) {
            LimiterRedisServer.authenticate(node, details.getUsername(), details.getPassword());
            node.setSsl(ssl);
            if (app != null) {
                node.setVerifyPeer(app.getVerifyMode());
                node.setStartTls(app.isStartTls());
            }
        }
        if (app != null && app.getRedisCredentialsProviderFactory().isPresent()) {
            LettuceConnectionFactory factory = Objects.requireNonNull(appFactory,
                    "app is appFactory's client configuration");
            RedisCredentialsProviderFactory credentials = app.getRedisCredentialsProviderFactory().get();
            nodes.forEach(node -> node.setCredentialsProvider(credentials.createCredentialsProvider(configuration(factory))));
            RedisSentinelConfiguration sentinel = factory.getSentinelConfiguration();
            if (sentinel != null) {
                sentinels.forEach(node -> node.setCredentialsProvider(
                        credentials.createSentinelCredentialsProvider(sentinel)));
            }
        }
        return new LimiterRedisServer(topology, nodes, app == null ? null : app.getClientOptions().orElse(null),
                app == null ? null : app.getClientName().orElse(null), "the app's Redis connection details");
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

    /** The app factory's own description of its server, which its credentials provider is made for. */
    private static RedisConfiguration configuration(LettuceConnectionFactory app) {
        RedisConfiguration cluster = app.getClusterConfiguration();
        if (cluster != null) {
            return cluster;
        }
        RedisConfiguration sentinel = app.getSentinelConfiguration();
        return sentinel != null ? sentinel : app.getStandaloneConfiguration();
    }
}
