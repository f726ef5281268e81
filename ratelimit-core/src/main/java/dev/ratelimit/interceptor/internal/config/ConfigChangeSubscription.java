package dev.ratelimit.interceptor.internal.config;

import dev.ratelimit.interceptor.config.ConfigChangeListener;
import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * This instance's subscription to the config-change channel, made by a start-up task that retries until
 * Redis answers. The subscription then lives on by itself: Lettuce reconnects and subscribes again after a
 * lost connection, and the listener refreshes on each new subscription.
 *
 * <p>Not Spring's {@code RedisMessageListenerContainer}: its subscriber holds a lock while it connects,
 * Lettuce waits for a new connection without a bound, and the container's stop takes that lock, so an
 * app stopping while Redis was away could wait for ever (a CI run did). Here a connection being made
 * holds nothing the stop needs: stopping closes what is open, and a connection that is opened after
 * the stop is closed at once.
 *
 * <p>Stopped before the limiter's client ({@link RedisBackgroundWork}), whose shutdown would otherwise close
 * the subscription's connection under it, with a warning.
 */
public final class ConfigChangeSubscription extends RedisBackgroundWork implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ConfigChangeSubscription.class);

    private final Supplier<StatefulRedisPubSubConnection<String, String>> connections;
    private final String channel;
    private final ConfigChangeListener listener;
    private @Nullable StatefulRedisPubSubConnection<String, String> connection;
    private boolean closed;

    /** @param connections opens a publish/subscribe connection, or throws when Redis does not answer */
    public ConfigChangeSubscription(Supplier<StatefulRedisPubSubConnection<String, String>> connections,
                                    String channel, ConfigChangeListener listener) {
        this.connections = connections;
        this.channel = channel;
        this.listener = listener;
    }

    /** Subscribes; throws when Redis does not answer. */
    public void subscribe() {
        StatefulRedisPubSubConnection<String, String> opened = connections.get();
        synchronized (this) {
            if (closed) {
                close(opened);
                return;
            }
            close(connection);
            connection = opened;
        }
        try {
            opened.addListener(listener);
            opened.sync().subscribe(channel);
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
        StatefulRedisPubSubConnection<String, String> open;
        synchronized (this) {
            closed = true;
            open = connection;
            connection = null;
        }
        close(open);
    }

    /** Closes a connection whose subscription failed, unless the stop has taken and closed it already. */
    private void forget(StatefulRedisPubSubConnection<String, String> failed) {
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

    /** Closes and waits a bounded while: closing is local to the client, and quick. */
    private static void close(@Nullable StatefulRedisPubSubConnection<String, String> connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.closeAsync().get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.debug("Closing the config-change subscription: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
