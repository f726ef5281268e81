package dev.ratelimit.interceptor.testsupport;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps a redis-server asleep most of the time while open: {@code DEBUG SLEEP} of {@code sleepTime}, back to
 * back on a connection of its own. Redis runs one command at a time, so every other client's command waits
 * up to that long: a slow Redis that still answers, as one stalled by a heavy command, a fork or its disk
 * is, and one that, unlike a busy script, leaves the machine's CPUs to the apps under test.
 */
public final class SleepingRedis implements AutoCloseable {

    /** The server option {@code DEBUG} needs (Redis 7 refuses it by default), for {@link RedisServerProcess#start(List)}. */
    public static final List<String> SERVER_OPTIONS = List.of("--enable-debug-command", "local");

    private final AtomicBoolean sleeping = new AtomicBoolean(true);
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final Thread thread;

    private SleepingRedis(int port, Duration sleepTime) {
        client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(sleepTime.multipliedBy(4)).build());
        connection = client.connect();
        String seconds = Double.toString(sleepTime.toMillis() / 1000.0);
        thread = new Thread(() -> {
            while (sleeping.get()) {
                try {
                    connection.sync().dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                            new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(seconds));
                } catch (RedisException e) {
                    sleeping.set(false); // the server went away: nothing left to slow down
                }
            }
        }, "sleeping-redis-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts the sleeps on the redis-server on {@code port}, started with {@link #SERVER_OPTIONS}. */
    public static SleepingRedis start(int port, Duration sleepTime) {
        return new SleepingRedis(port, sleepTime);
    }

    @Override
    public void close() throws InterruptedException {
        sleeping.set(false);
        thread.join();
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
