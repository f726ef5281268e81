package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Counters in Redis. Each decision is one {@code EVALSHA} of an algorithm's Lua script, which reads
 * Redis' own clock and does check-and-count atomically; the decisions of one request are pipelined
 * (on Lettuce's shared connection when the client is Lettuce, see {@link LettuceScriptBatch}), so
 * several limits cost about one round trip. Scripts are loaded into Redis on the first
 * {@code NOSCRIPT} (a fresh or restarted server) and the call is repeated once.
 */
public class RedisRateLimitStore implements RateLimitStore {

    private static final String HEAD = "counter_head.lua";
    private static final Map<Algorithm, LuaScript> SCRIPTS = new EnumMap<>(Map.of(
            Algorithm.FIXED_WINDOW, LuaScript.load(HEAD, "fixed_window.lua"),
            Algorithm.SLIDING_WINDOW, LuaScript.load(HEAD, "sliding_window.lua"),
            Algorithm.SLIDING_LOG, LuaScript.load(HEAD, "sliding_log.lua"),
            Algorithm.TOKEN_BUCKET, LuaScript.load(HEAD, "token_bucket.lua")));

    private final StringRedisTemplate redis;
    private final Clock testClock;
    private final Duration batchTimeout;

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
        this.batchTimeout = LettuceScriptBatch.timeout(redis.getRequiredConnectionFactory());
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
        if (requests.size() == 1) {
            ScriptCall call = call(requests.get(0));
            List<?> reply = redis.execute((RedisCallback<List<?>>) connection -> evalSha(connection, call));
            return List.of(decision(requests.get(0), reply));
        }
        List<ScriptCall> calls = requests.stream().map(this::call).toList();
        List<Object> replies = redis.execute((RedisCallback<List<Object>>) connection ->
                batchTimeout != null && LettuceScriptBatch.supports(connection)
                        ? LettuceScriptBatch.evalShas(connection, calls, batchTimeout)
                        : pipelined(calls));
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), (List<?>) replies.get(i)));
        }
        return decisions;
    }

    private List<Object> pipelined(List<ScriptCall> calls) {
        return redis.executePipelined((RedisCallback<Object>) connection -> {
            calls.forEach(call -> evalSha(connection, call));
            return null;
        });
    }

    private ScriptCall call(CounterRequest request) {
        byte[] limit = bytes(Long.toString(request.limit()));
        byte[] window = bytes(Long.toString(request.windowMillis()));
        byte[][] args = testClock == null ? new byte[][] {limit, window}
                : new byte[][] {limit, window, bytes(Long.toString(testClock.millis()))};
        return new ScriptCall(script(request.algorithm()).sha1(), bytes(request.key()), args);
    }

    private static List<?> evalSha(RedisConnection connection, ScriptCall call) {
        return connection.scriptingCommands().evalSha(call.sha1(), ReturnType.MULTI, 1, call.keyAndArgs());
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
