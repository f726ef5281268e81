package dev.ratelimit.demo;

import java.util.Map;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Lets the demo run with nothing installed: unless {@code spring.data.redis.host}, {@code .url} or
 * {@code .port} or {@code ratelimit.redis.url} is set, or the counters are in the process
 * ({@code ratelimit.store=memory}, which connects to no Redis), starts {@link DemoRedisServer} and points
 * the app at it, and says how to look
 * inside with {@code redis-cli}. The server stops after the app has (a Spring Boot shutdown handler),
 * so Ctrl-C stops the demo quietly. Not while the build processes the app ahead of time
 * ({@code spring-boot:process-aot}): nothing connects then.
 */
public class EmbeddedRedisEnvironmentPostProcessor implements EnvironmentPostProcessor {

    private static DemoRedisServer server;

    private final Log log;

    public EmbeddedRedisEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(EmbeddedRedisEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (Boolean.getBoolean(AbstractAotProcessor.AOT_PROCESSING)
                || !environment.getProperty("demo.embedded-redis.enabled", Boolean.class, true)
                || environment.containsProperty("spring.data.redis.host")
                || environment.containsProperty("spring.data.redis.url")
                || environment.containsProperty("spring.data.redis.port")
                || environment.containsProperty("ratelimit.redis.url")
                || "memory".equalsIgnoreCase(environment.getProperty("ratelimit.store"))) {
            return;
        }
        int port = start();
        environment.getPropertySources().addFirst(new MapPropertySource("embeddedRedis",
                Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", port)));
        log.info("The demo's own redis-server listens on 127.0.0.1:" + port + "; look inside with: redis-cli -p "
                + port);
    }

    private static synchronized int start() {
        if (server == null) {
            DemoRedisServer started = DemoRedisServer.start();
            SpringApplication.getShutdownHandlers().add(started::stop);
            server = started;
        }
        return server.port();
    }
}
