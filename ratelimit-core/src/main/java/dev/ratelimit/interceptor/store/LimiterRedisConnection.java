package dev.ratelimit.interceptor.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The Redis connections the limiter decides on and does its background work on: connections of its own
 * (see {@code ratelimit.redis.*}), never a bean of the app's, so that the app's own Redis use keeps its own
 * timeouts and its auto-configuration. Declare a bean of this type to choose another Redis.
 *
 * <p>Scripts are sent on the asynchronous commands of one connection, several together without waiting, and
 * their replies awaited by a {@link ReplyWatch}: a request waits while Redis answers and gives up when Redis
 * falls silent, and a reply that comes after a request gave up is still handed to whoever asked for it. The
 * background work has a second connection, of text keys and values ({@link #backgroundWork()}), made with
 * the first. Both are made on a thread of their own, and a request waits for them no longer than for a reply:
 * Lettuce waits for Redis' handshake up to its command timeout.
 *
 * <p>The limiter's Lettuce client is made on that thread too, while the app goes on building its beans:
 * loading Lettuce and Netty and shaking hands with Redis take a few hundred milliseconds of a start, which
 * the app does not wait for unless they are still under way when its beans are all made.
 */
public final class LimiterRedisConnection implements SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LimiterRedisConnection.class);
    private static final byte[] PROBE_SCRIPT = "return 1".getBytes(StandardCharsets.UTF_8);
    private static final byte[][] NO_KEYS = new byte[0][];
    /** Longer than any attempt to connect lasts (Lettuce ends one within its connect and command timeouts). */
    private static final Duration BACKGROUND_WAIT = Duration.ofMinutes(1);

    private final ReplyWatch watch;
    private final Runnable close;
    /** The client, made on the connector's thread. */
    /**
     * The shipped {@code ratelimit.redis.timeout}: the silence after which Redis is judged silent. Declared here,
     * with what it tunes, as the text a property takes, so the starter's default and this core's tests are one.
     */
    public static final String DEFAULT_SILENCE = "250ms";
    /** The shipped {@code ratelimit.redis.max-wait}. */
    public static final String DEFAULT_MAX_WAIT = "1s";

    private final CompletableFuture<LimiterRedisClient> client;
    private final ExecutorService connector = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-redis-connect");
        thread.setDaemon(true);
        return thread;
    });
    /** The attempt to connect under way or last made; {@code null} before the first. */
    private final AtomicReference<CompletableFuture<Void>> connecting = new AtomicReference<>();
    private final BackgroundCommands background = new BackgroundCommands(this::backgroundConnection);
    /** {@code null} until the connections are made; both set before the attempt that makes them completes. */
    private volatile @Nullable RedisScriptingAsyncCommands<byte[], byte[]> commands;
    private volatile @Nullable StatefulConnection<String, String> backgroundConnection;
    private volatile ReplyReaders readers = ReplyReaders.UNWATCHED;
    /** Whether the log says that Redis cannot be reached, since the last connection made. */
    private volatile boolean unreachableSaid;
    /** The connection being opened and the scripts loaded, which the start waits for; {@code null} before. */
    private volatile @Nullable CompletableFuture<Void> opening;
    private volatile Duration openingWait = Duration.ZERO;

    /**
     * Connections of a client that {@code client} makes, on the connection's own thread.
     *
     * @param client  makes the Lettuce client; connects nothing
     * @param silence how long Redis may answer nothing while a request waits before it is judged silent
     *                ({@code ratelimit.redis.timeout})
     * @param maxWait the longest a request waits while Redis answers others ({@code ratelimit.redis.max-wait})
     * @param close   releases what {@code client} made, if it made anything; run when the app stops
     */
    public LimiterRedisConnection(Supplier<LimiterRedisClient> client, Duration silence, Duration maxWait,
                                  Runnable close) {
        this.watch = new ReplyWatch(silence, maxWait);
        this.close = close;
        this.client = CompletableFuture.supplyAsync(client, connector);
    }

    /**
     * The commands of the limiter's background work with Redis (the config hash, its version checks, the API
     * index, statistics, heartbeats): on a connection that reconnects within a probe interval of Redis coming
     * back and refuses commands at once while Redis is away, so that no background work, and none of its last
     * writes when the app stops, waits long. Its commands throw until the limiter's connections are made.
     */
    public BackgroundCommands backgroundWork() {
        return background;
    }

    /**
     * The Lettuce client, for work that needs it whole (tracking the config hash): waits until it is made, then
     * throws if it could not be.
     */
    public AbstractRedisClient client() {
        return awaited(client, BACKGROUND_WAIT).lettuce();
    }

    /**
     * A new publish/subscribe connection of the limiter's client, once its connections are made (throws until
     * then): for the config-change subscription.
     */
    public StatefulRedisPubSubConnection<String, String> connectPubSub() {
        awaitConnected();
        return awaited(client, BACKGROUND_WAIT).connectPubSub();
    }

    /**
     * Opens the connection and loads the scripts, waiting {@code connectTimeout} at most: see
     * {@link #beginOpening}.
     */
    void open(List<byte[]> scripts, Duration connectTimeout) {
        beginOpening(scripts, connectTimeout);
        afterSingletonsInstantiated();
    }

    /**
     * Starts opening the connection and loading the scripts, so that the first requests after the start find
     * both ready: called once while the app starts; the start waits for it once the app's beans are made
     * ({@link #afterSingletonsInstantiated}), before the app takes requests. Never fails the start, and the
     * start waits {@code connectTimeout} at most: a first connection on a busy machine, or to a Redis that
     * does not answer, is then made in the background, the scripts loaded once it is, and the first requests
     * wait for it as long as for a reply ({@code maxWait}).
     */
    void beginOpening(List<byte[]> scripts, Duration connectTimeout) {
        openingWait = connectTimeout;
        opening = connect().thenCompose(connected -> CompletableFuture.allOf(scripts.stream()
                .map(script -> commands().scriptLoad(script).toCompletableFuture())
                .toArray(CompletableFuture[]::new)));
    }

    /** Waits for the opening begun, if any, as {@link #beginOpening} says; says in the log how it ended. */
    @Override
    public void afterSingletonsInstantiated() {
        CompletableFuture<Void> begun = opening;
        if (begun == null) {
            return;
        }
        opening = null; // said once, whether the app or open() waited for it
        try {
            begun.get(openingWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = Objects.requireNonNull(e.getCause(), "an ExecutionException holds the failure");
            CompletableFuture<Void> attempt = connecting.get();
            if (attempt != null && attempt.isCompletedExceptionally()) {
                // A connection not made is said once, by the attempt itself.
                log.debug("Rate limiter: cannot open the Redis connection at start-up: {}", cause.toString());
            } else {
                log.warn("Rate limiter: cannot open the Redis connection and load the scripts at start-up; "
                        + "the first requests will: {}", cause.toString());
            }
        } catch (TimeoutException e) {
            log.info("Rate limiter: the Redis connection is not open within {} of the start; it is made in the "
                    + "background, and requests wait for it up to {}", openingWait, watch.maxWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends one script call per entry, without waiting: by {@code EVALSHA}, or, {@code whole}, by {@code EVAL} of
     * the script's body. Each reply is a future, failed when Redis answered with an error.
     */
    List<CompletableFuture<Object>> send(List<ScriptCall> calls, boolean whole) {
        RedisScriptingAsyncCommands<byte[], byte[]> async = commands();
        List<CompletableFuture<Object>> replies = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            ScriptCall call = calls.get(i);
            byte[][] keys = call.keys();
            RedisFuture<Object> reply = whole
                    ? async.eval(call.script().body(), ScriptOutputType.MULTI, keys, call.args())
                    : async.evalsha(call.script().sha1(), ScriptOutputType.MULTI, keys, call.args());
            replies.add(watch.watch(reply.toCompletableFuture()));
        }
        return replies;
    }

    /** Waits for replies as {@link ReplyWatch} does. */
    ReplyWatch.Outcome await(List<CompletableFuture<Object>> replies) {
        return watch.await(replies, readers);
    }

    /**
     * Runs the smallest script there is: answers only when Redis runs scripts, which a paused or busy
     * Redis does not, unlike {@code PING}.
     *
     * @return whether Redis answered as a request would need it to
     */
    public boolean probe() {
        try {
            CompletableFuture<Object> reply = watch.watch(
                    commands().eval(PROBE_SCRIPT, ScriptOutputType.INTEGER, NO_KEYS).toCompletableFuture());
            return watch.await(List.of(reply), readers) == ReplyWatch.Outcome.ANSWERED && !reply.isCompletedExceptionally();
        } catch (RuntimeException e) {
            log.debug("Rate limit store: probe failed: {}", e.toString());
            return false;
        }
    }

    /** The silence timeout and the maximum wait, for the actuator endpoint. */
    public Duration silence() {
        return watch.silence();
    }

    public Duration maxWait() {
        return watch.maxWait();
    }

    /**
     * Closes the connections, waiting for it {@link RedisBackgroundWork#STOP_WAIT} at most. An attempt to
     * connect under way is interrupted first, and whoever waits for it is told at once.
     */
    @Override
    public void destroy() {
        connector.shutdownNow();
        client.completeExceptionally(new RedisConnectionException("The app is stopping"));
        CompletableFuture<Void> attempt = connecting.get();
        if (attempt != null) {
            attempt.completeExceptionally(new RedisConnectionException("The app is stopping"));
        }
        RedisBackgroundWork.runBounded("the limiter's Redis connection", () -> {
            readers.close();
            close.run();
        }).join();
    }

    /** The connection's commands: until the connection is made, waits for it {@code maxWait} at most. */
    private RedisScriptingAsyncCommands<byte[], byte[]> commands() {
        RedisScriptingAsyncCommands<byte[], byte[]> async = commands;
        return async != null ? async : connected(connect(), watch.maxWait());
    }

    /**
     * Waits for the connection as background work may: as long as the attempt under way lasts (the close
     * interrupts it), then throws if it failed.
     */
    private void awaitConnected() {
        if (commands == null) {
            connected(connect(), BACKGROUND_WAIT);
        }
    }

    private RedisScriptingAsyncCommands<byte[], byte[]> connected(CompletableFuture<Void> attempt, Duration atMost) {
        awaited(attempt, atMost);
        return Objects.requireNonNull(commands, "set before the attempt completed");
    }

    /** The background work's connection, once made: waits as background work may, then throws if it failed. */
    private StatefulConnection<String, String> backgroundConnection() {
        awaitConnected();
        return Objects.requireNonNull(backgroundConnection, "set before the attempt completed");
    }

    private static <T> T awaited(CompletableFuture<T> attempt, Duration atMost) {
        try {
            return attempt.get(atMost.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = Objects.requireNonNull(e.getCause(), "an ExecutionException holds the failure");
            throw new RedisUnreachableException("The rate limiter cannot connect to Redis: "
                    + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new RedisUnreachableException("The rate limiter's connection to Redis is not made within "
                    + atMost, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("Interrupted while connecting to Redis", e);
        }
    }

    /** The attempt to connect under way, or a new one: one at a time, on the connector's thread. */
    private CompletableFuture<Void> connect() {
        CompletableFuture<Void> last = connecting.get();
        if (last != null && (!last.isDone() || commands != null)) {
            return last;
        }
        CompletableFuture<Void> attempt = new CompletableFuture<>();
        if (!connecting.compareAndSet(last, attempt)) {
            return Objects.requireNonNull(connecting.get(), "the attempt of the thread that won");
        }
        try {
            connector.execute(() -> {
                try {
                    connectNow();
                    if (unreachableSaid) {
                        unreachableSaid = false;
                        log.info("Rate limiter: connected to Redis");
                    }
                    attempt.complete(null);
                } catch (RuntimeException e) {
                    sayUnreachable(e);
                    attempt.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            attempt.completeExceptionally(new RedisConnectionException("The app is stopping", e));
        }
        return attempt;
    }

    /**
     * The one warning of an app that cannot reach Redis (at start-up, typically), with what is degraded until
     * it does; the failures that follow from it are logged at debug level ({@link RedisUnreachableException}).
     */
    private void sayUnreachable(RuntimeException failure) {
        if (unreachableSaid || connector.isShutdown()) {
            return;
        }
        unreachableSaid = true;
        log.warn("Rate limiter: cannot connect to Redis ({}). Until it answers, requests are decided as "
                + "ratelimit.redis-failure.mode says, the rules are the last read (or, before any, as declared), "
                + "and the statistics, heartbeats and API index wait; the limiter keeps trying and says when it "
                + "connects", failure.getMessage());
    }

    private void connectNow() {
        LimiterRedisClient made;
        try {
            // Made before, on this thread: the client's task was queued before any attempt to connect.
            made = client.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
        // Lettuce reconnects both by itself, so they are made once.
        StatefulConnection<byte[], byte[]> decisions = made.connect(ByteArrayCodec.INSTANCE);
        StatefulConnection<String, String> work;
        try {
            work = made.connect(StringCodec.UTF8);
        } catch (RuntimeException e) {
            decisions.closeAsync();
            throw e;
        }
        readers = EventLoopReaders.of(made.lettuce());
        backgroundConnection = work;
        commands = LimiterRedisClient.async(decisions);
    }
}
