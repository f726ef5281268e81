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
 * several limits cost about one round trip. Calls answered {@code NOSCRIPT} (a fresh or restarted
 * server, a promoted replica) are repeated once as {@code EVAL}, which puts the script in that server's cache.
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
            // EVAL runs on the server that holds each key and leaves the script in its cache. SCRIPT LOAD
            // would go to every node of a cluster and fail as long as any one of them is down, so a
            // promoted replica that never saw the scripts would stay without them.
            return evaluateWithBodies(requests);
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
        return decisions(requests, replies);
    }

    private List<Decision> evaluateWithBodies(List<CounterRequest> requests) {
        return decisions(requests, redis.executePipelined((RedisCallback<Object>) connection -> {
            requests.forEach(request -> connection.scriptingCommands().eval(script(request.algorithm()).body(),
                    ReturnType.MULTI, 1, call(request).keyAndArgs()));
            return null;
        }));
    }

    private static List<Decision> decisions(List<CounterRequest> requests, List<Object> replies) {
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
