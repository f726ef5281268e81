package dev.ratelimit.interceptor.internal.config;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.AsyncCloseable;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Tells this instance of every write of the config hash as it happens, an edit by hand that announces
 * nothing ({@code redis-cli HSET} without {@code PUBLISH}) included: Redis' client tracking (Redis 6+) in
 * broadcasting mode for the hash's key, on one connection of this instance's own that is sent the
 * invalidations itself (redirected to its own id, which RESP2 and RESP3 both take). Nothing is polled and
 * nothing in the server's configuration changes: Redis sends one message per write of the hash (and per
 * flush), to each instance.
 *
 * <p>From the limiter's client; on a Redis Cluster the connection goes to the node that holds the hash. A
 * lost connection is replaced and armed again, retried until Redis answers, and the hash is then re-read,
 * since writes made meanwhile were not reported. Where it cannot track (a static master/replica set, a Redis
 * older than 6, an ACL without {@code CLIENT TRACKING}) it says so once and leaves the announcements and the
 * periodic refresh, as without it.
 */
public final class ConfigHashTracking extends RedisBackgroundWork implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ConfigHashTracking.class);

    /** The channel RESP2 delivers invalidations on; RESP3 pushes them as {@value #INVALIDATE}. */
    static final String INVALIDATIONS = "__redis__:invalidate";
    static final String INVALIDATE = "invalidate";
    private static final long FIRST_PAUSE_MILLIS = 500;
    private static final long MAX_PAUSE_MILLIS = 10_000;

    private final Supplier<AbstractRedisClient> client;
    private final String key;
    private final Runnable changed;
    private final Duration timeout;
    private final ScheduledExecutorService rearming = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-config-tracking");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean rearmQueued = new AtomicBoolean();
    private final RedisConnectionStateListener lost = new RedisConnectionStateListener() {
        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
            lost(connection);
        }
    };
    private @Nullable Tracked tracked;
    private boolean closed;

    /**
     * @param client  the client the hash is tracked on: read when armed, which waits until it is made
     * @param key     the config hash's key
     * @param changed what a write of the hash does: on the client's thread, so it must not block
     * @param timeout how long each command of arming may take
     */
    public ConfigHashTracking(Supplier<AbstractRedisClient> client, String key, Runnable changed, Duration timeout) {
        this.client = client;
        this.key = key;
        this.changed = changed;
        this.timeout = timeout;
    }

    /**
     * Opens the connection and arms the tracking, then has the hash re-read; throws when Redis does not
     * answer, so that the caller tries again. Where tracking is not to be had, says so and returns.
     */
    public void arm() {
        Tracked opened;
        try {
            opened = open(client.get());
        } catch (RedisCommandExecutionException | IllegalStateException refused) {
            log.info("Changes of the rate limit config hash that are not announced are applied at the next refresh: "
                    + "Redis does not track {} for this instance ({})", key, refused.getMessage());
            return;
        }
        Tracked replaced;
        synchronized (this) {
            if (closed) {
                opened.close();
                return;
            }
            replaced = tracked;
            tracked = opened;
        }
        if (replaced != null) {
            replaced.close();
        }
        log.debug("Tracking the rate limit config hash {}", key);
        changed.run();
    }

    private Tracked open(AbstractRedisClient client) {
        StatefulRedisPubSubConnection<String, String> connection;
        AsyncCloseable owner;
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterPubSubConnection<String, String> nodes = cluster.connectPubSub(StringCodec.UTF8);
            owner = nodes;
            try {
                cluster.refreshPartitions();
                connection = nodes.getConnection(cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key))
                        .getNodeId());
            } catch (RuntimeException e) {
                nodes.closeAsync();
                throw e;
            }
        } else {
            connection = ((RedisClient) client).connectPubSub(StringCodec.UTF8);
            owner = connection;
        }
        Tracked opened = new Tracked(connection, owner);
        try {
            connection.addListener(new RedisPubSubAdapter<String, String>() {
                @Override
                public void message(String channel, String message) {
                    if (INVALIDATIONS.equals(channel)) {
                        changed.run();
                    }
                }
            });
            connection.addListener((PushListener) message -> {
                if (INVALIDATE.equals(message.getType())) {
                    changed.run();
                }
            });
            long id = await(connection.async().clientId());
            await(connection.async().clientTracking(TrackingArgs.Builder.enabled().bcast().prefixes(key).redirect(id)));
            await(connection.async().subscribe(INVALIDATIONS));
            connection.addListener(lost);
            return opened;
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** The tracked connection was lost: Lettuce would reconnect it, but without the tracking, so a new one is armed. */
    private void lost(RedisChannelHandler<?, ?> connection) {
        Tracked gone;
        synchronized (this) {
            if (closed || tracked == null || tracked.connection() != connection) {
                return; // closed by this class
            }
            gone = tracked;
            tracked = null;
        }
        gone.close();
        log.debug("Lost the connection that tracks the rate limit config hash; arming a new one");
        if (rearmQueued.compareAndSet(false, true)) {
            ExponentialBackOff backOff = new ExponentialBackOff(FIRST_PAUSE_MILLIS, 2);
            backOff.setMaxInterval(MAX_PAUSE_MILLIS);
            rearm(backOff.start(), 0);
        }
    }

    private void rearm(BackOffExecution pauses, long pause) {
        try {
            rearming.schedule(() -> {
                try {
                    arm();
                    rearmQueued.set(false);
                } catch (RuntimeException e) {
                    log.debug("Cannot track the rate limit config hash yet: {}", e.toString());
                    rearm(pauses, pauses.nextBackOff());
                }
            }, pause, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            rearmQueued.set(false); // stopping
        }
    }

    private <T> T await(CompletionStage<T> reply) {
        try {
            return reply.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisCommandTimeoutException("Redis did not answer within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while arming the config hash's tracking", e);
        }
    }

    @Override
    protected void stopping() {
        destroy();
    }

    /** Closes the connection; closing is local to the client, so it takes no time whatever Redis does. */
    @Override
    public void destroy() {
        Tracked open;
        synchronized (this) {
            closed = true;
            open = tracked;
            tracked = null;
        }
        if (open != null) {
            open.close();
        }
        stop(rearming);
    }

    /** The connection that is sent the invalidations, and what closes it (on a cluster, the cluster's connection). */
    private record Tracked(StatefulRedisPubSubConnection<String, String> connection, AsyncCloseable owner) {

        /**
         * Closes it and waits for the close, which is local to the client and quick, a bounded while: a client
         * shut down (the app's, as it stops) while the close is under way would close it again, with a warning.
         */
        void close() {
            try {
                owner.closeAsync().get(RedisBackgroundWork.STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                log.debug("Closing the connection that tracks the rate limit config hash: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
