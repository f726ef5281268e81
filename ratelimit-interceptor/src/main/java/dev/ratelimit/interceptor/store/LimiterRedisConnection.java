package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.RedisBackgroundWork;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * The Redis connection the limiter decides on and does its background work on: a connection of its own
 * (see {@code ratelimit.redis.*}), never a bean of the app's, so that the app's own Redis use keeps its own
 * timeouts and its auto-configuration. Declare a bean of this type to choose another connection.
 *
 * <p>On Lettuce, Spring Boot's default client, scripts are sent on the connection's asynchronous
 * commands, several together without waiting, and their replies awaited by a {@link ReplyWatch}: a
 * request waits while Redis answers and gives up when Redis falls silent, and a reply that comes
 * after a request gave up is still handed to whoever asked for it. The connection is made on a thread of
 * its own, and a request waits for it no longer than for a reply: Lettuce makes it under the factory's lock
 * and waits for Redis' handshake up to its command timeout. Other clients are used through the template,
 * synchronously, with that client's own timeouts.
 *
 * <p>The limiter's own Lettuce client is made on that thread too, while the app goes on building its
 * beans: loading Lettuce and Netty and shaking hands with Redis take a few hundred milliseconds of a
 * start, which the app does not wait for unless they are still under way when its beans are all made.
 */
public final class LimiterRedisConnection implements SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LimiterRedisConnection.class);
    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            LimiterRedisConnection.class.getClassLoader());
    private static final byte[] PROBE_SCRIPT = "return 1".getBytes(StandardCharsets.UTF_8);
    private static final byte[][] NO_KEYS = new byte[0][];
    /** Longer than any attempt to connect lasts (Lettuce ends one within its connect and command timeouts). */
    private static final Duration BACKGROUND_WAIT = Duration.ofMinutes(1);

    private final StringRedisTemplate template;
    private final ReplyWatch watch;
    private final Runnable close;
    /** The Lettuce factory, made on the connector's thread; {@code null} for other clients. */
    private final CompletableFuture<LettuceConnectionFactory> lettuce;
    private final ExecutorService connector = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-redis-connect");
        thread.setDaemon(true);
        return thread;
    });
    /** The attempt to connect under way or last made; {@code null} before the first. */
    private final AtomicReference<CompletableFuture<Void>> connecting = new AtomicReference<>();
    private volatile RedisScriptingAsyncCommands<byte[], byte[]> commands;
    private volatile ReplyReaders readers = ReplyReaders.UNWATCHED;
    /** Whether the log says that Redis cannot be reached, since the last connection made. */
    private volatile boolean unreachableSaid;
    /** The connection being opened and the scripts loaded, which the start waits for; {@code null} before. */
    private volatile CompletableFuture<Void> opening;
    private volatile Duration openingWait = Duration.ZERO;

    /**
     * @param template the connection's template; on Lettuce, its factory's connection
     * @param silence  how long Redis may answer nothing while a request waits before it is judged silent
     *                 ({@code ratelimit.redis.timeout})
     * @param maxWait  the longest a request waits while Redis answers others ({@code ratelimit.redis.max-wait})
     * @param close    releases what this connection owns; run when the app stops
     */
    public LimiterRedisConnection(StringRedisTemplate template, Duration silence, Duration maxWait, Runnable close) {
        this.watch = new ReplyWatch(silence, maxWait);
        this.close = close;
        RedisConnectionFactory factory = template.getRequiredConnectionFactory();
        this.lettuce = LETTUCE && factory instanceof LettuceConnectionFactory lettuceFactory
                ? CompletableFuture.completedFuture(lettuceFactory) : null;
        this.template = lettuce == null ? template : connectedOnly();
    }

    /**
     * A connection on a Lettuce client that {@code client} makes, started, on the connection's own thread.
     *
     * @param close releases what {@code client} made, if it made anything; run when the app stops
     */
    public LimiterRedisConnection(Supplier<LettuceConnectionFactory> client, Duration silence, Duration maxWait,
                                  Runnable close) {
        this.watch = new ReplyWatch(silence, maxWait);
        this.close = close;
        this.lettuce = CompletableFuture.supplyAsync(client, connector);
        this.template = connectedOnly();
    }

    private StringRedisTemplate connectedOnly() {
        StringRedisTemplate connectedOnly = new StringRedisTemplate();
        connectedOnly.setConnectionFactory(new ConnectedOnlyFactory(this::lettuceFactory, this::awaitConnected));
        connectedOnly.afterPropertiesSet();
        return connectedOnly;
    }

    /**
     * The template of the limiter's background work with Redis (the config hash, its version checks, the
     * API index, statistics, heartbeats, the config-change subscription): on this connection, which
     * reconnects within a probe interval of Redis coming back and refuses commands at once while Redis is
     * away, so that no background work, and none of its last writes when the app stops, waits long. On
     * Lettuce it hands out connections only once the limiter's own is made ({@link ConnectedOnlyFactory}).
     */
    public StringRedisTemplate backgroundWork() {
        return template;
    }

    /**
     * The connection's factory itself, for work that needs its client (tracking the config hash): on
     * Lettuce, waits until the client is made.
     */
    public RedisConnectionFactory clientFactory() {
        return lettuce != null ? lettuceFactory() : template.getRequiredConnectionFactory();
    }

    /** Whether replies are awaited by the limiter (Lettuce) rather than by the client's own timeout. */
    boolean watchesReplies() {
        return lettuce != null;
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
        if (lettuce == null) {
            opening = CompletableFuture.runAsync(() -> template.execute((RedisCallback<Object>) connection -> {
                scripts.forEach(script -> connection.scriptingCommands().scriptLoad(script));
                return null;
            }), Runnable::run);
            return;
        }
        opening = connect().thenCompose(connected -> CompletableFuture.allOf(scripts.stream()
                .map(script -> commands.scriptLoad(script).toCompletableFuture())
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
            CompletableFuture<Void> attempt = connecting.get();
            if (attempt != null && attempt.isCompletedExceptionally()) {
                // A connection not made is said once, by the attempt itself.
                log.debug("Rate limiter: cannot open the Redis connection at start-up: {}", e.getCause().toString());
            } else {
                log.warn("Rate limiter: cannot open the Redis connection and load the scripts at start-up; "
                        + "the first requests will: {}", e.getCause().toString());
            }
        } catch (TimeoutException e) {
            log.info("Rate limiter: the Redis connection is not open within {} of the start; it is made in the "
                    + "background, and requests wait for it up to {}", openingWait, watch.maxWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends one script call per entry, without waiting: by {@code EVALSHA}, or, with {@code bodies}, by
     * {@code EVAL} of those bodies. Each reply is a future, failed when Redis answered with an error.
     */
    List<CompletableFuture<Object>> send(List<ScriptCall> calls, List<byte[]> bodies) {
        if (lettuce == null) {
            return sendThroughTemplate(calls, bodies);
        }
        RedisScriptingAsyncCommands<byte[], byte[]> async = commands();
        List<CompletableFuture<Object>> replies = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            ScriptCall call = calls.get(i);
            byte[][] keys = call.keys();
            RedisFuture<Object> reply = bodies == null
                    ? async.evalsha(call.sha1(), ScriptOutputType.MULTI, keys, call.args())
                    : async.eval(bodies.get(i), ScriptOutputType.MULTI, keys, call.args());
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
            if (lettuce == null) {
                template.execute((RedisCallback<Object>) connection ->
                        connection.scriptingCommands().eval(PROBE_SCRIPT, ReturnType.INTEGER, 0));
                return true;
            }
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
     * Closes the connection, waiting for it {@link RedisBackgroundWork#STOP_WAIT} at most. An attempt to
     * connect under way is interrupted first, so that it gives back the factory's lock, which closing needs,
     * and whoever waits for it is told at once.
     */
    @Override
    public void destroy() {
        connector.shutdownNow();
        if (lettuce != null) {
            lettuce.completeExceptionally(new RedisConnectionFailureException("The app is stopping"));
        }
        CompletableFuture<Void> attempt = connecting.get();
        if (attempt != null) {
            attempt.completeExceptionally(new RedisConnectionFailureException("The app is stopping"));
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
        return commands;
    }

    /** The Lettuce factory, once made: waits as background work may, then throws if it could not be made. */
    private LettuceConnectionFactory lettuceFactory() {
        return awaited(lettuce, BACKGROUND_WAIT);
    }

    private static <T> T awaited(CompletableFuture<T> attempt, Duration atMost) {
        try {
            return attempt.get(atMost.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new RedisUnreachableException("The rate limiter cannot connect to Redis: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new RedisUnreachableException("The rate limiter's connection to Redis is not made within "
                    + atMost, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionFailureException("Interrupted while connecting to Redis", e);
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
            return connecting.get();
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
            attempt.completeExceptionally(new RedisConnectionFailureException("The app is stopping", e));
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

    @SuppressWarnings("unchecked")
    private void connectNow() {
        LettuceConnectionFactory factory;
        try {
            // Made before, on this thread: the factory's task was queued before any attempt to connect.
            factory = lettuce.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
        // The factory's shared connection: Lettuce reconnects it by itself, so it is fetched once.
        RedisScriptingAsyncCommands<byte[], byte[]> async =
                (RedisScriptingAsyncCommands<byte[], byte[]>) factory.getConnection().getNativeConnection();
        readers = EventLoopReaders.of(factory.getRequiredNativeClient());
        commands = async;
    }

    private List<CompletableFuture<Object>> sendThroughTemplate(List<ScriptCall> calls, List<byte[]> bodies) {
        List<CompletableFuture<Object>> replies = new ArrayList<>(calls.size());
        try {
            List<Object> results = template.executePipelined((RedisCallback<Object>) connection -> {
                for (int i = 0; i < calls.size(); i++) {
                    ScriptCall call = calls.get(i);
                    if (bodies == null) {
                        connection.scriptingCommands().evalSha(call.sha1(), ReturnType.MULTI, call.keys().length,
                                call.keysAndArgs());
                    } else {
                        connection.scriptingCommands().eval(bodies.get(i), ReturnType.MULTI, call.keys().length,
                                call.keysAndArgs());
                    }
                }
                return null;
            });
            results.forEach(result -> replies.add(result instanceof Throwable error
                    ? CompletableFuture.failedFuture(error) : CompletableFuture.completedFuture(result)));
        } catch (RuntimeException e) {
            calls.forEach(call -> replies.add(CompletableFuture.failedFuture(e)));
        }
        return replies;
    }
}
