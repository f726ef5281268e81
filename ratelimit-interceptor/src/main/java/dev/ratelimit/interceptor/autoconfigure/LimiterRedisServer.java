package dev.ratelimit.interceptor.autoconfigure;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis the limiter connects to, and where that was read. The limiter always opens a connection of its
 * own and declares none as a bean, so that the app's Redis, cache and health auto-configuration see
 * exactly what they would see without it. In order: {@code ratelimit.redis.url}; the app's own Redis as
 * Spring Boot describes it, when the app uses Spring Boot's Redis ({@link AppRedisServer}); else
 * {@code spring.data.redis.*}, read by the limiter itself as Spring Boot would read them.
 *
 * @param configuration the server, sentinels or cluster
 * @param ssl           whether to connect with TLS
 * @param appClient     the app's own Lettuce client settings (TLS, client name, credentials, options) when the
 *                      app built its connection from the same description, else {@code null}
 * @param clientName    the name the app's connections go by, {@code null} for none
 * @param origin        where the description was read, for the log and the actuator
 */
record LimiterRedisServer(RedisConfiguration configuration, boolean ssl, LettuceClientConfiguration appClient,
                          String clientName, String origin) {

    private static final Set<String> SCHEMES = Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel",
            "redis-socket");

    static LimiterRedisServer ofUrl(String url, String origin) {
        RedisURI uri;
        try {
            // Lettuce reads a URI without a scheme as a host name, which would fail only at the first request.
            uri = SCHEMES.contains(URI.create(url).getScheme()) ? RedisURI.create(url) : null;
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null) {
            throw new IllegalArgumentException(origin + ": '" + url + "' is not a Redis URI: write "
                    + "redis://[user:password@]host:port[/database], rediss:// for TLS, or redis-sentinel://");
        }
        return new LimiterRedisServer(LettuceConnectionFactory.createRedisConfiguration(uri), uri.isSsl(), null, null,
                origin);
    }

    /** {@code spring.data.redis.*} as Spring Boot reads them: a URL, sentinels, a cluster, or one server. */
    static LimiterRedisServer ofProperties(Environment environment) {
        SpringDataRedis redis = Binder.get(environment).bind("spring.data.redis", SpringDataRedis.class)
                .orElseGet(() -> new SpringDataRedis(null, "localhost", 6379, 0, null, null, null, null, null, null));
        boolean ssl = redis.ssl() != null && (redis.ssl().enabled() || redis.ssl().bundle() != null);
        if (redis.url() != null) {
            LimiterRedisServer server = ofUrl(redis.url(), "spring.data.redis.url");
            return new LimiterRedisServer(server.configuration(), server.ssl() || ssl, null, redis.clientName(),
                    server.origin());
        }
        RedisPassword password = RedisPassword.of(redis.password());
        if (redis.sentinel() != null && redis.sentinel().master() != null) {
            SpringDataRedis.Sentinel sentinel = redis.sentinel();
            RedisSentinelConfiguration config = new RedisSentinelConfiguration(sentinel.master(),
                    new LinkedHashSet<>(sentinel.nodes()));
            config.setSentinelUsername(sentinel.username());
            config.setSentinelPassword(RedisPassword.of(sentinel.password()));
            config.setUsername(redis.username());
            config.setPassword(password);
            config.setDatabase(redis.database());
            return new LimiterRedisServer(config, ssl, null, redis.clientName(), "spring.data.redis.sentinel.*");
        }
        if (redis.cluster() != null && !redis.cluster().nodes().isEmpty()) {
            RedisClusterConfiguration config = new RedisClusterConfiguration(redis.cluster().nodes());
            config.setUsername(redis.username());
            config.setPassword(password);
            return new LimiterRedisServer(config, ssl, null, redis.clientName(), "spring.data.redis.cluster.*");
        }
        RedisStandaloneConfiguration config = new RedisStandaloneConfiguration(redis.host(), redis.port());
        config.setDatabase(redis.database());
        config.setUsername(redis.username());
        config.setPassword(password);
        return new LimiterRedisServer(config, ssl, null, redis.clientName(), "spring.data.redis.*");
    }

    /** The part of Spring Boot's {@code spring.data.redis.*} that says which server, with Spring Boot's defaults. */
    record SpringDataRedis(String url, @DefaultValue("localhost") String host, @DefaultValue("6379") int port,
                           int database, String username, String password, String clientName, Ssl ssl,
                           Sentinel sentinel, Cluster cluster) {

        record Ssl(boolean enabled, String bundle) {
        }

        record Sentinel(String master, @DefaultValue List<String> nodes, String username, String password) {
        }

        record Cluster(@DefaultValue List<String> nodes) {
        }
    }
}
