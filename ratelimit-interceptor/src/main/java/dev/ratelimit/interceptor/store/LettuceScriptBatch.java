package dev.ratelimit.interceptor.store;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Sends several {@code EVALSHA} together on Lettuce's shared connection: written one after the other
 * without waiting, they travel as one pipeline, and the replies are awaited together within the
 * command timeout. Spring Data Redis pipelines on a dedicated connection instead, which without a
 * connection pool is a new TCP connection per request: a handshake on every request with several
 * limits, and a socket left in TIME_WAIT each time.
 */
final class LettuceScriptBatch {

    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            LettuceScriptBatch.class.getClassLoader());

    private LettuceScriptBatch() {
    }

    /** The command timeout of a Lettuce factory, or {@code null} for another client, which this class cannot serve. */
    static Duration timeout(RedisConnectionFactory factory) {
        return LETTUCE && factory instanceof LettuceConnectionFactory lettuce
                ? lettuce.getClientConfiguration().getCommandTimeout() : null;
    }

    /** Whether the connection is Lettuce's, so that {@link #evalShas} can send on it. */
    static boolean supports(RedisConnection connection) {
        return LETTUCE && connection.getNativeConnection() instanceof RedisScriptingAsyncCommands<?, ?>;
    }

    /**
     * The replies, in order.
     *
     * @throws QueryTimeoutException when not all replies came within {@code timeout}
     */
    @SuppressWarnings("unchecked")
    static List<Object> evalShas(RedisConnection connection, List<ScriptCall> calls, Duration timeout) {
        RedisScriptingAsyncCommands<byte[], byte[]> commands =
                (RedisScriptingAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
        List<RedisFuture<Object>> replies = new ArrayList<>(calls.size());
        for (ScriptCall call : calls) {
            replies.add(commands.evalsha(call.sha1(), ScriptOutputType.MULTI, new byte[][] {call.key()}, call.args()));
        }
        if (!LettuceFutures.awaitAll(timeout, replies.toArray(RedisFuture[]::new))) {
            replies.forEach(reply -> reply.cancel(true));
            throw new QueryTimeoutException("Redis did not answer " + calls.size() + " scripts within " + timeout);
        }
        List<Object> results = new ArrayList<>(replies.size());
        for (RedisFuture<Object> reply : replies) {
            results.add(reply.toCompletableFuture().join());
        }
        return results;
    }
}
