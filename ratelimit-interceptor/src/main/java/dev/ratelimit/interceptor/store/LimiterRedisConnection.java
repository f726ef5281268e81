package dev.ratelimit.interceptor.store;

import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis connection the limiter decides on. By default a connection of its own to the app's Redis,
 * with the limiter's short timeout ({@code ratelimit.redis.timeout}), so that a slow Redis holds a
 * request no longer than that while the app's own Redis use keeps its own timeout. Declare a bean of
 * this type to choose another connection.
 */
public final class LimiterRedisConnection implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LimiterRedisConnection.class);
    private static final byte[] PROBE_SCRIPT = "return 1".getBytes(StandardCharsets.UTF_8);

    private final StringRedisTemplate template;
    private final Runnable close;

    /**
     * @param template the connection's template
     * @param close    releases what this connection owns; run when the app stops
     */
    public LimiterRedisConnection(StringRedisTemplate template, Runnable close) {
        this.template = template;
        this.close = close;
    }

    /**
     * The app's own connection, with the app's timeout: for Redis clients the limiter cannot copy. Says so
     * in the log, since the limiter's timeout then does not apply.
     *
     * @param reason why the limiter cannot have its own connection, for the log
     */
    public static LimiterRedisConnection sharedWith(StringRedisTemplate appRedis, String reason) {
        log.warn("Rate limiter: deciding on the app's Redis connection ({}), so its timeout (spring.data.redis.timeout) "
                + "applies instead of ratelimit.redis.timeout", reason);
        return new LimiterRedisConnection(appRedis, () -> { });
    }

    public StringRedisTemplate template() {
        return template;
    }

    /**
     * Runs the smallest script there is: answers only when Redis runs scripts, which a paused or busy
     * Redis does not, unlike {@code PING}.
     *
     * @throws RuntimeException when Redis does not answer in time
     */
    public void probe() {
        template.execute((RedisCallback<Object>) connection ->
                connection.scriptingCommands().eval(PROBE_SCRIPT, ReturnType.INTEGER, 0));
    }

    @Override
    public void destroy() {
        close.run();
    }
}
