package dev.ratelimit.interceptor.store;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Redis as the limiter's background work uses it (the config hash, the API index, statistics, heartbeats,
 * blocked clients): Lettuce's commands, keys and values as text, on a connection of the limiter's own that
 * is made with the one requests are decided on. Until it is made, or while Redis is away, a command throws
 * at once ({@link RedisUnreachableException}, or Lettuce's refusal of a disconnected connection), so that no
 * background work waits on a Redis that does not answer longer than the connection's command timeout.
 */
public final class BackgroundCommands {

    private final Supplier<StatefulConnection<String, String>> connection;

    /** @param connection the connection, once made: throws until then */
    BackgroundCommands(Supplier<StatefulConnection<String, String>> connection) {
        this.connection = connection;
    }

    /** The commands, each waiting for its reply up to the connection's command timeout. */
    public RedisClusterCommands<String, String> sync() {
        return LimiterRedisClient.sync(connection.get());
    }

    /**
     * Sends the commands {@code commands} sends, without waiting between them, then waits for their replies,
     * all within the connection's command timeout: one round trip for all.
     *
     * @return the replies, in the order of the futures {@code commands} returned
     * @throws RedisException the first failure among the replies, or a timeout
     */
    public List<Object> pipelined(Function<RedisClusterAsyncCommands<String, String>, List<? extends RedisFuture<?>>> commands) {
        StatefulConnection<String, String> open = connection.get();
        List<? extends RedisFuture<?>> replies = commands.apply(LimiterRedisClient.async(open));
        long deadline = System.nanoTime() + open.getTimeout().toNanos();
        List<Object> results = new ArrayList<>(replies.size());
        for (RedisFuture<?> reply : replies) {
            try {
                results.add(reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException failure ? failure : new RedisException(e.getCause());
            } catch (TimeoutException e) {
                throw new RedisCommandTimeoutException("Redis did not answer within " + open.getTimeout());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisException("Interrupted while waiting for Redis", e);
            }
        }
        return results;
    }

    /**
     * Runs a script by its SHA-1, or by its body when Redis does not have it yet.
     *
     * @param type what the script returns: {@code INTEGER} a {@code Long}, {@code MULTI} a {@code List}
     */
    public <T> T script(LuaScript script, ScriptOutputType type, List<String> keys, List<String> args) {
        RedisClusterCommands<String, String> commands = sync();
        String[] keyArray = keys.toArray(new String[0]);
        String[] argArray = args.toArray(new String[0]);
        try {
            return commands.evalsha(script.sha1(), type, keyArray, argArray);
        } catch (RedisNoScriptException e) {
            return commands.eval(script.body(), type, keyArray, argArray);
        }
    }
}
