package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
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
 * Redis' own clock and does check-and-count atomically; the decisions of one request are pipelined,
 * so several limits cost about one round trip. Scripts are loaded into Redis on the first
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
        if (requests.size() == 1) {
            CounterRequest request = requests.get(0);
            List<?> reply = redis.execute((RedisCallback<List<?>>) connection -> evalSha(connection, request));
            return List.of(decision(request, reply));
        }
        List<Object> replies = redis.executePipelined((RedisCallback<Object>) connection -> {
            for (CounterRequest request : requests) {
                evalSha(connection, request);
            }
            return null;
        });
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), (List<?>) replies.get(i)));
        }
        return decisions;
    }

    private List<?> evalSha(RedisConnection connection, CounterRequest request) {
        byte[] key = bytes(request.key());
        byte[] limit = bytes(Long.toString(request.limit()));
        byte[] window = bytes(Long.toString(request.windowMillis()));
        String sha1 = script(request.algorithm()).sha1();
        if (testClock == null) {
            return connection.scriptingCommands().evalSha(sha1, ReturnType.MULTI, 1, key, limit, window);
        }
        return connection.scriptingCommands().evalSha(sha1, ReturnType.MULTI, 1, key, limit, window,
                bytes(Long.toString(testClock.millis())));
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
