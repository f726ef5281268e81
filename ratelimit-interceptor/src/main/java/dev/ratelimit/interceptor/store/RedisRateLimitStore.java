package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Counters in Redis. Each decision is one {@code EVALSHA} of an algorithm's Lua script, which reads
 * Redis' own clock and does check-and-count atomically; the decisions of one request are sent together,
 * so several limits cost about one round trip. Scripts are loaded into Redis on the first
 * {@code NOSCRIPT} (a fresh or restarted server) and the call is repeated once.
 *
 * <p>With Lettuce (Spring Boot's default client) the scripts go straight to the connection the template
 * lends, through Lettuce's asynchronous API: every {@code EVALSHA} of a request is written before the
 * first reply is awaited, on the shared connection, within the client's command timeout. Spring's own
 * pipelining would take a dedicated connection for every call (a new TCP connection each time unless the
 * factory pools them), and its per-command layer costs more than the decision itself on a busy
 * machine (see {@code BENCHMARKS.md}). Other clients go through Spring's connection API.
 */
public class RedisRateLimitStore implements RateLimitStore {

    private static final String HEAD = "counter_head.lua";
    private static final Map<Algorithm, LuaScript> SCRIPTS = new EnumMap<>(Map.of(
            Algorithm.FIXED_WINDOW, LuaScript.load(HEAD, "fixed_window.lua"),
            Algorithm.SLIDING_WINDOW, LuaScript.load(HEAD, "sliding_window.lua"),
            Algorithm.SLIDING_LOG, LuaScript.load(HEAD, "sliding_log.lua"),
            Algorithm.TOKEN_BUCKET, LuaScript.load(HEAD, "token_bucket.lua")));
    /** Lettuce's own default, for a connection that does not tell its timeout. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final LettuceExceptionConverter LETTUCE_EXCEPTIONS = new LettuceExceptionConverter();

    private final StringRedisTemplate redis;
    private final Clock testClock;

    public RedisRateLimitStore(StringRedisTemplate redis) {
        this(redis, null);
    }

    /**
     * @param testClock the time the scripts decide at, instead of Redis' own: only for tests that feed
     *                  this and the in-process store one clock
     */
    RedisRateLimitStore(StringRedisTemplate redis, Clock testClock) {
        this.redis = redis;
        this.testClock = testClock;
    }

    @Override
    public Set<Algorithm> supportedAlgorithms() {
        return SCRIPTS.keySet();
    }

    @Override
    public List<Decision> acquire(List<CounterRequest> requests) {
        try {
            return evaluate(requests);
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            loadScripts();
            return evaluate(requests);
        }
    }

    private List<Decision> evaluate(List<CounterRequest> requests) {
        return redis.execute((RedisCallback<List<Decision>>) connection ->
                connection.getNativeConnection() instanceof RedisClusterAsyncCommands<?, ?> lettuce
                        ? evaluateAsync(lettuceCommands(lettuce), requests)
                        : evaluatePipelined(connection, requests));
    }

    private List<Decision> evaluateAsync(RedisClusterAsyncCommands<byte[], byte[]> lettuce, List<CounterRequest> requests) {
        List<RedisFuture<List<Object>>> replies = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            replies.add(lettuce.evalsha(script(request.algorithm()).sha1(), ScriptOutputType.MULTI,
                    new byte[][] {bytes(request.key())}, arguments(request)));
        }
        long deadline = System.nanoTime() + timeout(lettuce).toNanos();
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), await(replies.get(i), deadline)));
        }
        return decisions;
    }

    private List<Decision> evaluatePipelined(RedisConnection connection, List<CounterRequest> requests) {
        if (requests.size() == 1) {
            return List.of(decision(requests.get(0), evalSha(connection, requests.get(0))));
        }
        connection.openPipeline();
        for (CounterRequest request : requests) {
            evalSha(connection, request);
        }
        List<Object> replies = connection.closePipeline();
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), (List<?>) replies.get(i)));
        }
        return decisions;
    }

    private List<?> evalSha(RedisConnection connection, CounterRequest request) {
        byte[][] arguments = arguments(request);
        byte[][] keyAndArguments = new byte[arguments.length + 1][];
        keyAndArguments[0] = bytes(request.key());
        System.arraycopy(arguments, 0, keyAndArguments, 1, arguments.length);
        return connection.scriptingCommands().evalSha(script(request.algorithm()).sha1(), ReturnType.MULTI, 1,
                keyAndArguments);
    }

    /** ARGV of a counter script: limit, window and, under a test's clock, the time. */
    private byte[][] arguments(CounterRequest request) {
        byte[] limit = bytes(Long.toString(request.limit()));
        byte[] window = bytes(Long.toString(request.windowMillis()));
        return testClock == null
                ? new byte[][] {limit, window}
                : new byte[][] {limit, window, bytes(Long.toString(testClock.millis()))};
    }

    @SuppressWarnings("unchecked")
    private static RedisClusterAsyncCommands<byte[], byte[]> lettuceCommands(RedisClusterAsyncCommands<?, ?> lettuce) {
        // Spring's Lettuce connections always use a byte[] codec.
        return (RedisClusterAsyncCommands<byte[], byte[]>) lettuce;
    }

    /** The command timeout the factory gave the connection, the one its synchronous commands wait. */
    private static Duration timeout(RedisClusterAsyncCommands<byte[], byte[]> lettuce) {
        if (lettuce instanceof RedisAsyncCommands<byte[], byte[]> standalone) {
            return standalone.getStatefulConnection().getTimeout();
        }
        if (lettuce instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
            return cluster.getStatefulConnection().getTimeout();
        }
        return DEFAULT_TIMEOUT;
    }

    private static List<?> await(RedisFuture<List<Object>> reply, long deadline) {
        try {
            return LettuceFutures.awaitOrCancel(reply, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            // The exceptions Spring's synchronous commands would throw, so callers see one kind either way.
            DataAccessException translated = LETTUCE_EXCEPTIONS.convert(e);
            throw translated != null ? translated : new RedisSystemException(e.getMessage(), e);
        }
    }

    private static Decision decision(CounterRequest request, List<?> reply) {
        return new Decision(number(reply, 0) == 1, request.limit(), number(reply, 1), number(reply, 2),
                number(reply, 3));
    }

    private void loadScripts() {
        redis.execute((RedisCallback<Void>) connection -> {
            for (LuaScript script : SCRIPTS.values()) {
                connection.scriptingCommands().scriptLoad(script.body());
            }
            return null;
        });
    }

    private static LuaScript script(Algorithm algorithm) {
        LuaScript script = SCRIPTS.get(algorithm);
        if (script == null) {
            throw new IllegalArgumentException("No Redis script for " + algorithm);
        }
        return script;
    }

    private static long number(List<?> reply, int index) {
        return ((Number) reply.get(index)).longValue();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isNoScript(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }
}
