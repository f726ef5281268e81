package dev.ratelimit.interceptor.store;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * The Redis connection the limiter decides on. By default a connection of its own to the app's Redis
 * (see {@code ratelimit.redis.*}), so that the app's own Redis use keeps its own timeouts. Declare a
 * bean of this type to choose another connection.
 *
 * <p>On Lettuce, Spring Boot's default client, scripts are sent on the connection's asynchronous
 * commands, several together without waiting, and their replies awaited by a {@link ReplyWatch}: a
 * request waits while Redis answers and gives up when Redis falls silent, and a reply that comes
 * after a request gave up is still handed to whoever asked for it. Other clients are used through the
 * template, synchronously, with that client's own timeouts.
 */
public final class LimiterRedisConnection implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LimiterRedisConnection.class);
    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            LimiterRedisConnection.class.getClassLoader());
    private static final byte[] PROBE_SCRIPT = "return 1".getBytes(StandardCharsets.UTF_8);
    private static final byte[][] NO_KEYS = new byte[0][];

    private final StringRedisTemplate template;
    private final ReplyWatch watch;
    private final Runnable close;
    private final LettuceConnectionFactory lettuce;
    private volatile RedisScriptingAsyncCommands<byte[], byte[]> commands;
    private volatile ReplyReaders readers = ReplyReaders.UNWATCHED;

    /**
     * @param template the connection's template
     * @param silence  how long Redis may answer nothing while a request waits before it is judged silent
     *                 ({@code ratelimit.redis.timeout})
     * @param maxWait  the longest a request waits while Redis answers others ({@code ratelimit.redis.max-wait})
     * @param close    releases what this connection owns; run when the app stops
     */
    public LimiterRedisConnection(StringRedisTemplate template, Duration silence, Duration maxWait, Runnable close) {
        this.template = template;
        this.watch = new ReplyWatch(silence, maxWait);
        this.close = close;
        RedisConnectionFactory factory = template.getRequiredConnectionFactory();
        this.lettuce = LETTUCE && factory instanceof LettuceConnectionFactory lettuceFactory ? lettuceFactory : null;
    }

    /**
     * The app's own connection: for Redis clients the limiter cannot copy. Says so in the log, since the
     * app's timeouts then apply to the limiter's commands too.
     *
     * @param reason why the limiter cannot have its own connection, for the log
     */
    public static LimiterRedisConnection sharedWith(StringRedisTemplate appRedis, String reason, Duration silence,
                                                    Duration maxWait) {
        log.warn("Rate limiter: deciding on the app's Redis connection ({}), so its timeout (spring.data.redis.timeout) "
                + "applies too", reason);
        return new LimiterRedisConnection(appRedis, silence, maxWait, () -> { });
    }

    /**
     * The template of the limiter's background work with Redis (the config hash, its version checks, the
     * API index): the limiter's own connection when there is one, which reconnects within a probe interval
     * of Redis coming back and refuses commands at once while Redis is away, so that no background read
     * waits for the app's long timeouts; else the app's.
     */
    public static StringRedisTemplate forBackgroundWork(LimiterRedisConnection limiter, StringRedisTemplate app) {
        return limiter == null ? app : limiter.template;
    }

    /** Whether replies are awaited by the limiter (Lettuce) rather than by the client's own timeout. */
    boolean watchesReplies() {
        return lettuce != null;
    }

    /**
     * Opens the connection and loads the scripts, so that the first requests after the start find both
     * ready: called once while the app starts, before it takes requests. Never fails the start.
     *
     * @param connectTimeout how long this may take in all
     */
    void open(List<byte[]> scripts, Duration connectTimeout) {
        try {
            if (lettuce == null) {
                template.execute((RedisCallback<Object>) connection -> {
                    scripts.forEach(script -> connection.scriptingCommands().scriptLoad(script));
                    return null;
                });
                return;
            }
            RedisScriptingAsyncCommands<byte[], byte[]> async = commands();
            List<RedisFuture<String>> loads = new ArrayList<>(scripts.size());
            scripts.forEach(script -> loads.add(async.scriptLoad(script)));
            long deadline = System.nanoTime() + connectTimeout.toNanos();
            for (RedisFuture<String> load : loads) {
                load.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            log.warn("Rate limiter: cannot open the Redis connection and load the scripts at start-up; "
                    + "the first requests will: {}", e.toString());
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

    @Override
    public void destroy() {
        readers.close();
        close.run();
    }

    @SuppressWarnings("unchecked")
    private RedisScriptingAsyncCommands<byte[], byte[]> commands() {
        RedisScriptingAsyncCommands<byte[], byte[]> async = commands;
        if (async == null) {
            synchronized (this) {
                async = commands;
                if (async == null) {
                    // The factory's shared connection: Lettuce reconnects it by itself, so it is fetched once.
                    async = (RedisScriptingAsyncCommands<byte[], byte[]>) lettuce.getConnection().getNativeConnection();
                    readers = EventLoopReaders.of(lettuce.getRequiredNativeClient());
                    commands = async;
                }
            }
        }
        return async;
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
