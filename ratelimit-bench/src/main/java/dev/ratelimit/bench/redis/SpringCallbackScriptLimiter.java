package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import java.util.List;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Our fixed-window script sent the way the store sends a single decision ({@code StringRedisTemplate.execute}
 * with a callback calling Spring's {@code evalSha}) but with nothing of the store around it: beside
 * {@code OURS_FIXED_WINDOW} it shows what the store's own work costs, and beside the Lettuce-only
 * contender what Spring's layer costs.
 */
final class SpringCallbackScriptLimiter implements Limiter {

    private final AppTemplate app;
    private final StringRedisTemplate redis;
    private final FixedWindowScript script;
    private final String sha;

    SpringCallbackScriptLimiter(AppTemplate app, BenchLimit limit, int keys) {
        this.app = app;
        this.redis = app.template;
        this.script = new FixedWindowScript(limit, keys);
        this.sha = redis.execute((RedisCallback<String>) connection -> connection.scriptingCommands().scriptLoad(script.body));
    }

    @Override
    public boolean tryAcquire(int key) {
        List<?> reply = redis.execute((RedisCallback<List<?>>) connection -> connection.scriptingCommands()
                .evalSha(sha, ReturnType.MULTI, 1, script.keys[key], script.limit, script.window));
        return ((Number) reply.get(0)).longValue() == 1;
    }

    @Override
    public void close() {
        app.close();
    }
}
