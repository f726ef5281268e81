package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.event.DefaultEventPublisherOptions;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.resolver.DefaultAddressResolverGroup;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Builds the limiter's own Lettuce connection to {@link LimiterRedisServer}, with the app's client settings
 * when it has them, and three changes: commands refused at once while disconnected (queued commands would
 * hold requests until Redis is judged silent); a command timeout of its own, long, since requests stop
 * waiting by the limiter's judgement of Redis, not by Lettuce's; and reconnect attempts at most
 * {@code reconnectCeiling} apart (Lettuce's default grows to 30 s, which would keep decisions off Redis
 * that long after it is back).
 */
final class LimiterConnectionFactory {

    /**
     * When Lettuce gives up a command: requests stop waiting much earlier (see {@code ReplyWatch}), but a
     * reply that still comes tells what Redis counted, so it is read as long as it is likely to come.
     */
    static final Duration ABANDON_AFTER = Duration.ofSeconds(10);

    private LimiterConnectionFactory() {
    }

    static LimiterRedisConnection create(LimiterRedisServer server, RateLimitProperties.Redis redis,
                                         Duration reconnectCeiling) {
        Client client = new Client(server, redis.connectTimeout(), reconnectCeiling);
        return new LimiterRedisConnection(client, redis.timeout(), redis.maxWait(), client::close);
    }

    /** The Lettuce client, made once, on the connection's thread; and what closes it when the app stops. */
    private static final class Client implements Supplier<LettuceConnectionFactory> {

        private final LimiterRedisServer server;
        private final Duration connectTimeout;
        private final Duration reconnectCeiling;
        private ClientResources resources;
        private LettuceConnectionFactory factory;
        private boolean closed;

        Client(LimiterRedisServer server, Duration connectTimeout, Duration reconnectCeiling) {
            this.server = server;
            this.connectTimeout = connectTimeout;
            this.reconnectCeiling = reconnectCeiling;
        }

        @Override
        public synchronized LettuceConnectionFactory get() {
            if (closed) {
                throw new IllegalStateException("The app is stopping");
            }
            if (factory == null) {
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
                LettuceConnectionFactory made = new LettuceConnectionFactory(server.configuration(),
                        client(server, connectTimeout, resources));
                made.afterPropertiesSet();
                made.start();
                factory = made;
            }
            return factory;
        }

        synchronized void close() {
            closed = true;
            if (factory != null) {
                factory.destroy();
            }
            if (resources != null) {
                resources.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }

    private static LettuceClientConfiguration client(LimiterRedisServer server, Duration connectTimeout,
                                                     ClientResources resources) {
        LettuceClientConfiguration app = server.appClient() != null ? server.appClient()
                : LettuceClientConfiguration.defaultConfiguration();
        ClientOptions appOptions = app.getClientOptions().orElseGet(() ->
                server.configuration() instanceof RedisClusterConfiguration ? ClusterClientOptions.create()
                        : ClientOptions.create());
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
        app.getClientName().or(() -> Optional.ofNullable(server.clientName()))
                .ifPresent(name -> builder.clientName(name + "-ratelimit"));
        app.getReadFrom().ifPresent(builder::readFrom);
        app.getRedisCredentialsProviderFactory().ifPresent(builder::redisCredentialsProviderFactory);
        if (app.isUseSsl() || server.ssl()) {
            LettuceClientConfiguration.LettuceSslClientConfigurationBuilder ssl = builder.useSsl().verifyPeer(app.getVerifyMode());
            if (app.isStartTls()) {
                ssl.startTls();
            }
        }
        return builder.build();
    }
}
