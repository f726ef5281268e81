package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

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
        ClientResources resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(1), reconnectCeiling, 2, TimeUnit.MILLISECONDS))
                .build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server.configuration(),
                client(server, redis.connectTimeout(), resources));
        factory.afterPropertiesSet();
        factory.start();
        return new LimiterRedisConnection(new StringRedisTemplate(factory), redis.timeout(), redis.maxWait(), () -> {
            factory.destroy();
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        });
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
