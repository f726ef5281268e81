package dev.ratelimit.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import redis.embedded.RedisServer;

/**
 * Lets the demo run with nothing installed: unless {@code spring.data.redis.host}, {@code .url} or
 * {@code .port} is set, starts the redis-server binary shipped in the embedded-redis artifact on a
 * free port and points the app at it. The process stops with the JVM.
 */
public class EmbeddedRedisEnvironmentPostProcessor implements EnvironmentPostProcessor {

    private static RedisServer server;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getProperty("demo.embedded-redis.enabled", Boolean.class, true)
                || environment.containsProperty("spring.data.redis.host")
                || environment.containsProperty("spring.data.redis.url")
                || environment.containsProperty("spring.data.redis.port")) {
            return;
        }
        int port = start();
        environment.getPropertySources().addFirst(new MapPropertySource("embeddedRedis",
                Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", port)));
    }

    private static synchronized int start() {
        if (server == null) {
            try {
                int port = freePort();
                RedisServer started = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                        .setting("save \"\"").setting("appendonly no").build();
                started.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(started), "embedded-redis-stop"));
                server = started;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start the embedded redis-server", e);
            }
        }
        return server.ports().get(0);
    }

    private static void stopQuietly(RedisServer redis) {
        try {
            redis.stop();
        } catch (IOException e) {
            // the JVM is exiting; the process dies with it
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
