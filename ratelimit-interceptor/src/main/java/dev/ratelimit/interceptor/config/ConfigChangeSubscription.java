package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.RedisBackgroundWork;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * This instance's subscription to the config-change channel, made by a start-up task that retries
 * until Redis answers. On Lettuce the subscription then lives on by itself: Lettuce reconnects and
 * subscribes again after a lost connection, and the listener refreshes on each new subscription. On a
 * blocking client (Jedis) {@link #subscribe()} holds the calling thread while it lasts and throws when
 * the connection is lost, so the task subscribes again.
 *
 * <p>Not Spring's {@code RedisMessageListenerContainer}: its subscriber holds a lock while it connects,
 * Lettuce waits for a new connection without a bound, and the container's stop takes that lock, so an
 * app stopping while Redis was away could wait for ever (a CI run did). Here a connection being made
 * holds nothing the stop needs: stopping closes what is open, and a connection that is opened after
 * the stop is closed at once.
 *
 * <p>Stopped before the connection factory it subscribes on (the limiter's own, see
 * {@code LimiterRedisConnection.backgroundWork}; {@link RedisBackgroundWork}): the factory's stop
 * closes its connection pool, which warns about the subscription's connection if it is still borrowed.
 */
public final class ConfigChangeSubscription extends RedisBackgroundWork implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ConfigChangeSubscription.class);

    private final RedisConnectionFactory factory;
    private final byte[] channel;
    private final ConfigChangeListener listener;
    private RedisConnection connection;
    private boolean closed;

    public ConfigChangeSubscription(RedisConnectionFactory factory, String channel, ConfigChangeListener listener) {
        this.factory = factory;
        this.channel = channel.getBytes(StandardCharsets.UTF_8);
        this.listener = listener;
    }

    /** Subscribes; throws when Redis does not answer. */
    public void subscribe() {
        RedisConnection opened = factory.getConnection();
        synchronized (this) {
            if (closed) {
                close(opened);
                return;
            }
            close(connection);
            connection = opened;
        }
        try {
            opened.subscribe(listener, channel);
        } catch (RuntimeException e) {
            forget(opened);
            throw e;
        }
    }

    @Override
    protected void started() {
        synchronized (this) {
            closed = false;
        }
    }

    @Override
    protected void stopping() {
        destroy();
    }

    @Override
    public void destroy() {
        RedisConnection open;
        synchronized (this) {
            closed = true;
            open = connection;
            connection = null;
        }
        close(open);
    }

    /** Closes a connection whose subscription failed, unless the stop has taken and closed it already. */
    private void forget(RedisConnection failed) {
        boolean ours;
        synchronized (this) {
            ours = connection == failed;
            if (ours) {
                connection = null;
            }
        }
        if (ours) {
            close(failed);
        }
    }

    private static void close(RedisConnection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (RuntimeException e) {
            log.debug("Closing the config-change subscription: {}", e.toString());
        }
    }
}
