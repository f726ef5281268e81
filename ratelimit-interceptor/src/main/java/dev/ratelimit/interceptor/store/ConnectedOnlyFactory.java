package dev.ratelimit.interceptor.store;

import java.util.function.Supplier;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The limiter's Lettuce connection factory as its background work uses it: a connection only once the
 * limiter's own is made ({@code awaitConnected} throws until then). Lettuce makes the factory's shared
 * connection under the factory's lock and waits for Redis' handshake up to its command timeout; a
 * background thread doing so while Redis hangs would hold every other caller, and the factory's close,
 * that long. So only the limiter's connecting thread makes it, and the close interrupts that thread.
 */
final class ConnectedOnlyFactory implements RedisConnectionFactory {

    private final Supplier<LettuceConnectionFactory> factory;
    private final Runnable awaitConnected;

    /**
     * @param factory        the Lettuce factory, once made (waits for it)
     * @param awaitConnected returns once the limiter's connection is made, or throws
     */
    ConnectedOnlyFactory(Supplier<LettuceConnectionFactory> factory, Runnable awaitConnected) {
        this.factory = factory;
        this.awaitConnected = awaitConnected;
    }

    @Override
    public RedisConnection getConnection() {
        awaitConnected.run();
        return factory.get().getConnection();
    }

    @Override
    public RedisClusterConnection getClusterConnection() {
        awaitConnected.run();
        return factory.get().getClusterConnection();
    }

    @Override
    public boolean getConvertPipelineAndTxResults() {
        return factory.get().getConvertPipelineAndTxResults();
    }

    @Override
    public RedisSentinelConnection getSentinelConnection() {
        return factory.get().getSentinelConnection();
    }

    @Override
    public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        // The limiter's own failures (no connection yet) are already translated; only Lettuce's need it.
        return ex instanceof DataAccessException translated ? translated : factory.get().translateExceptionIfPossible(ex);
    }
}
