package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.List;

/**
 * Our fixed-window script sent by Lettuce alone ({@code EVALSHA} on one shared connection, nothing of
 * Spring in between): what the same decision costs with the least a Java client can do.
 */
final class LettuceScriptLimiter implements Limiter {

    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final RedisCommands<byte[], byte[]> commands;
    private final FixedWindowScript script;
    private final String sha;

    LettuceScriptLimiter(int port, BenchLimit limit, int keys) {
        client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        connection = client.connect(ByteArrayCodec.INSTANCE);
        commands = connection.sync();
        script = new FixedWindowScript(limit, keys);
        sha = commands.scriptLoad(script.body);
    }

    @Override
    public boolean tryAcquire(int key) {
        List<Long> reply = commands.evalsha(sha, ScriptOutputType.MULTI, new byte[][] {script.keys[key]},
                script.limit, script.window);
        return reply.get(0) == 1;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
