package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Builds the limiter's own Lettuce connection: the server from the app's connection details
 * ({@code spring.data.redis.*}), the client settings (TLS, client name, credentials, options) from the
 * app's Lettuce connection factory, and three changes: commands refused at once while disconnected
 * (queued commands would hold requests until Redis is judged silent); a command timeout of its own,
 * long, since requests stop waiting by the limiter's judgement of Redis, not by Lettuce's; and reconnect
 * attempts at most {@code reconnectCeiling} apart (Lettuce's default grows to 30 s, which would keep
 * decisions off Redis that long after it is back). Uses the app's connection instead when the app's
 * factory is not Lettuce or was not built from the connection details.
 */
final class LimiterConnectionFactory {

    /**
     * When Lettuce gives up a command: requests stop waiting much earlier (see {@code ReplyWatch}), but a
     * reply that still comes tells what Redis counted, so it is read as long as it is likely to come.
     */
    static final Duration ABANDON_AFTER = Duration.ofSeconds(10);

    private LimiterConnectionFactory() {
    }

    static LimiterRedisConnection create(StringRedisTemplate appRedis, DataRedisConnectionDetails details,
                                         RateLimitProperties.Redis redis, Duration reconnectCeiling) {
        RedisConnectionFactory app = appRedis.getRequiredConnectionFactory();
        if (!(app instanceof LettuceConnectionFactory lettuce) || details == null || !sameServer(lettuce, details)) {
            return LimiterRedisConnection.sharedWith(appRedis, "its connection factory " + app.getClass().getName()
                    + " is not a Lettuce factory built from spring.data.redis.*", redis.timeout(), redis.maxWait());
        }
        ClientResources resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(1), reconnectCeiling, 2, TimeUnit.MILLISECONDS))
                .build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server(details),
                client(lettuce.getClientConfiguration(), details, redis.connectTimeout(), resources));
        factory.afterPropertiesSet();
        factory.start();
        return new LimiterRedisConnection(new StringRedisTemplate(factory), redis.timeout(), redis.maxWait(), () -> {
            factory.destroy();
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        });
    }

    /** An app that built its own standalone or socket factory, not from the properties, is not second-guessed. */
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

    private static LettuceClientConfiguration client(LettuceClientConfiguration app, DataRedisConnectionDetails details,
                                                     Duration connectTimeout, ClientResources resources) {
        ClientOptions appOptions = app.getClientOptions().orElseGet(() ->
                details.getCluster() != null ? ClusterClientOptions.create() : ClientOptions.create());
        ClientOptions options = appOptions.mutate()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(appOptions.getSocketOptions().mutate().connectTimeout(connectTimeout).build())
                .timeoutOptions(TimeoutOptions.enabled(ABANDON_AFTER))
                .build();
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
                .clientOptions(options)
                .clientResources(resources)
                .commandTimeout(ABANDON_AFTER)
                .shutdownTimeout(app.getShutdownTimeout())
                .shutdownQuietPeriod(app.getShutdownQuietPeriod());
        app.getClientName().ifPresent(name -> builder.clientName(name + "-ratelimit"));
        app.getReadFrom().ifPresent(builder::readFrom);
        app.getRedisCredentialsProviderFactory().ifPresent(builder::redisCredentialsProviderFactory);
        if (app.isUseSsl()) {
            LettuceClientConfiguration.LettuceSslClientConfigurationBuilder ssl = builder.useSsl().verifyPeer(app.getVerifyMode());
            if (app.isStartTls()) {
                ssl.startTls();
            }
        }
        return builder.build();
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
