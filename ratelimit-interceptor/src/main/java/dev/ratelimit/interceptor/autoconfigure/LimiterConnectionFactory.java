package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.LimiterRedisClient;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.event.DefaultEventPublisherOptions;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.resolver.DefaultAddressResolverGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Builds the limiter's own Lettuce client for {@link LimiterRedisServer}, with the app's client options when
 * it has them, and these changes: commands refused at once while disconnected (queued commands would hold
 * requests until Redis is judged silent); a command timeout of its own, long, since requests stop waiting
 * by the limiter's judgement of Redis, not by Lettuce's; reconnect attempts at most {@code reconnectCeiling}
 * apart (Lettuce's default grows to 30 s, which would keep decisions off Redis that long after it is back);
 * and its connections named after the app's, with {@code -ratelimit} added.
 */
final class LimiterConnectionFactory {

    /**
     * When Lettuce gives up a command: requests stop waiting much earlier (see {@code ReplyWatch}), but a
     * reply that still comes tells what Redis counted, so it is read as long as it is likely to come.
     */
    static final Duration ABANDON_AFTER = Duration.ofSeconds(10);
    /** How long closing the client waits for its connections to close (Spring Data Redis' default). */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofMillis(100);

    private LimiterConnectionFactory() {
    }

    static LimiterRedisConnection create(LimiterRedisServer server, RateLimitProperties.Redis redis,
                                         Duration reconnectCeiling) {
        Client client = new Client(server, redis.connectTimeout(), reconnectCeiling);
        return new LimiterRedisConnection(client, redis.timeout(), redis.maxWait(), client::close);
    }

    /** The Lettuce client, made once, on the connection's thread; and what closes it when the app stops. */
    private static final class Client implements Supplier<LimiterRedisClient> {

        private final LimiterRedisServer server;
        private final Duration connectTimeout;
        private final Duration reconnectCeiling;
        private @Nullable ClientResources resources;
        private @Nullable AbstractRedisClient lettuce;
        private @Nullable LimiterRedisClient made;
        private boolean closed;

        Client(LimiterRedisServer server, Duration connectTimeout, Duration reconnectCeiling) {
            this.server = server;
            this.connectTimeout = connectTimeout;
            this.reconnectCeiling = reconnectCeiling;
        }

        @Override
        public synchronized LimiterRedisClient get() {
            if (closed) {
                throw new IllegalStateException("The app is stopping");
            }
            if (made == null) {
                made = make();
            }
            return made;
        }

        private LimiterRedisClient make() {
            // Host names are resolved as the JVM resolves them (its hosts file and cache): Netty's DNS client,
            // Lettuce's default, is a few hundred classes and threads more at every start. Lettuce's own
            // latency statistics are off: nothing reads them (the limiter's latency is Micrometer's), and with
            // LatencyUtils on the classpath (Micrometer brings it) they cost a histogram write per command and
            // three pause-detector threads that wake every 10 ms for the life of the app.
            resources = DefaultClientResources.builder()
                    .commandLatencyRecorder(CommandLatencyRecorder.disabled())
                    .commandLatencyPublisherOptions(DefaultEventPublisherOptions.disabled())
                    .addressResolverGroup(DefaultAddressResolverGroup.INSTANCE)
                    .reconnectDelay(Delay.exponential(Duration.ofMillis(1), reconnectCeiling, 2, TimeUnit.MILLISECONDS))
                    .build();
            List<RedisURI> nodes = server.nodes();
            nodes.forEach(this::limiters);
            if (server.topology() == LimiterRedisServer.Topology.CLUSTER) {
                RedisClusterClient cluster = RedisClusterClient.create(resources, nodes);
                cluster.setOptions(ClusterClientOptions.builder(options(ClusterClientOptions.create())).build());
                lettuce = cluster;
                return LimiterRedisClient.of(cluster);
            }
            if (server.topology() == LimiterRedisServer.Topology.MASTER_REPLICA) {
                RedisClient redis = RedisClient.create(resources);
                redis.setOptions(options(ClientOptions.create()));
                lettuce = redis;
                return LimiterRedisClient.ofMasterReplica(redis, nodes);
            }
            // With its server, so that what takes the client whole (tracking the config hash) connects to it too.
            RedisClient redis = RedisClient.create(resources, nodes.get(0));
            redis.setOptions(options(ClientOptions.create()));
            lettuce = redis;
            return LimiterRedisClient.of(redis, nodes.get(0));
        }

        synchronized void close() {
            closed = true;
            if (lettuce != null) {
                lettuce.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
            }
            if (resources != null) {
                resources.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }

        /**
         * The limiter's command timeout and client name on a node of the server, which is the limiter's own (read
         * for it alone): set on it, since Lettuce's copy of a sentinel URI drops its sentinels.
         */
        private void limiters(RedisURI node) {
            node.setTimeout(ABANDON_AFTER);
            String name = server.clientName() != null ? server.clientName() : node.getClientName();
            if (name != null) {
                node.setClientName(name + "-ratelimit");
            }
        }

        /** The app's options, or {@code defaults}, refusing commands while disconnected, with the limiter's timeouts. */
        private ClientOptions options(ClientOptions defaults) {
            ClientOptions app = server.appOptions() != null ? server.appOptions() : defaults;
            return app.mutate()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .socketOptions(app.getSocketOptions().mutate().connectTimeout(connectTimeout).build())
                    .timeoutOptions(TimeoutOptions.enabled(ABANDON_AFTER))
                    .build();
        }
    }
}
