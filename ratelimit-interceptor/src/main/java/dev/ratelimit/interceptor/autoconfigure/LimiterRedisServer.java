package dev.ratelimit.interceptor.autoconfigure;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import java.net.URI;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;

/**
 * The Redis the limiter connects to, and where that was read. The limiter always opens connections of its
 * own and declares none as a bean, so that the app's Redis, cache and health auto-configuration see
 * exactly what they would see without it. In order: {@code ratelimit.redis.url}; the app's own Redis as
 * Spring Boot describes it, when the app uses Spring Boot's Redis ({@link AppRedisServer}); else
 * {@code spring.data.redis.*}, read by the limiter itself as Spring Boot would read them.
 *
 * @param topology   one server (or the master its sentinels name), a cluster, or a static master/replica set
 * @param nodes      the server, the cluster's seed nodes, or the master/replica set's nodes, each with its
 *                   credentials, database and TLS settings: read for the limiter alone, and handed to its
 *                   client as they are
 * @param appOptions the app's own Lettuce client options (TLS material, socket and protocol options) when the
 *                   app built its connection from the same description, else {@code null}
 * @param clientName the name the app's connections go by, {@code null} for none
 * @param origin     where the description was read, for the log and the actuator
 */
record LimiterRedisServer(Topology topology, List<RedisURI> nodes, @Nullable ClientOptions appOptions,
                          @Nullable String clientName, String origin) {

    private static final Set<String> SCHEMES = Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel",
            "redis-socket");

    enum Topology {
        STANDALONE, CLUSTER, MASTER_REPLICA
    }

    LimiterRedisServer {
        nodes = List.copyOf(nodes);
    }

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
        return new LimiterRedisServer(Topology.STANDALONE, List.of(uri), null, null, origin);
    }

    /** {@code spring.data.redis.*} as Spring Boot reads them: a URL, sentinels, a cluster, or one server. */
    static LimiterRedisServer ofProperties(Environment environment) {
        SpringDataRedis redis = Binder.get(environment).bind("spring.data.redis", SpringDataRedis.class)
                .orElseGet(() -> new SpringDataRedis(null, "localhost", 6379, 0, null, null, null, null, null, null));
        boolean ssl = redis.ssl() != null && (redis.ssl().enabled() || redis.ssl().bundle() != null);
        if (redis.url() != null) {
            LimiterRedisServer server = ofUrl(redis.url(), "spring.data.redis.url");
            server.nodes().forEach(uri -> uri.setSsl(uri.isSsl() || ssl));
            return new LimiterRedisServer(Topology.STANDALONE, server.nodes(), null, redis.clientName(), server.origin());
        }
        if (redis.sentinel() != null && redis.sentinel().master() != null) {
            SpringDataRedis.Sentinel sentinel = redis.sentinel();
            RedisURI.Builder builder = RedisURI.builder().withSentinelMasterId(sentinel.master())
                    .withDatabase(redis.database()).withSsl(ssl);
            for (String node : sentinel.nodes()) {
                RedisURI sentinelNode = node(node, RedisURI.DEFAULT_SENTINEL_PORT);
                authenticate(sentinelNode, sentinel.username(), sentinel.password());
                builder.withSentinel(sentinelNode);
            }
            RedisURI uri = builder.build();
            authenticate(uri, redis.username(), redis.password());
            return new LimiterRedisServer(Topology.STANDALONE, List.of(uri), null, redis.clientName(),
                    "spring.data.redis.sentinel.*");
        }
        if (redis.cluster() != null && !redis.cluster().nodes().isEmpty()) {
            List<RedisURI> nodes = redis.cluster().nodes().stream().map(node -> {
                RedisURI uri = node(node, RedisURI.DEFAULT_REDIS_PORT);
                authenticate(uri, redis.username(), redis.password());
                uri.setSsl(ssl);
                return uri;
            }).toList();
            return new LimiterRedisServer(Topology.CLUSTER, nodes, null, redis.clientName(), "spring.data.redis.cluster.*");
        }
        RedisURI uri = RedisURI.builder().withHost(redis.host()).withPort(redis.port()).withDatabase(redis.database())
                .withSsl(ssl).build();
        authenticate(uri, redis.username(), redis.password());
        return new LimiterRedisServer(Topology.STANDALONE, List.of(uri), null, redis.clientName(), "spring.data.redis.*");
    }

    /** A node written {@code host:port}, or {@code host} alone on the default port. */
    static RedisURI node(String hostAndPort, int defaultPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            return RedisURI.create(hostAndPort, defaultPort);
        }
        return RedisURI.create(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }

    /** A password, with a user name when there is one (Redis 6 ACLs); nothing without a password. */
    static void authenticate(RedisURI uri, @Nullable String username, @Nullable String password) {
        if (password == null) {
            return;
        }
        if (username != null) {
            uri.setUsername(username);
        }
        uri.setPassword((CharSequence) password);
    }

    /** The part of Spring Boot's {@code spring.data.redis.*} that says which server, with Spring Boot's defaults. */
    record SpringDataRedis(@Nullable String url, @DefaultValue("localhost") String host,
                           @DefaultValue("6379") int port, int database, @Nullable String username,
                           @Nullable String password, @Nullable String clientName, @Nullable Ssl ssl,
                           @Nullable Sentinel sentinel, @Nullable Cluster cluster) {

        record Ssl(boolean enabled, @Nullable String bundle) {
        }

        record Sentinel(@Nullable String master, @DefaultValue List<String> nodes, @Nullable String username,
                        @Nullable String password) {
        }

        record Cluster(@DefaultValue List<String> nodes) {
        }
    }
}
