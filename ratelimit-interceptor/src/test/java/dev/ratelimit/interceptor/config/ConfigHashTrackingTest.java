package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two app instances on one Redis, with the periodic refresh far away (1 h): an edit by hand, a plain
 * {@code HSET} on a connection of its own as {@code redis-cli} makes, with no announcement, is applied on
 * both instances all the same, and again once Redis has restarted and every connection was made anew.
 */
class ConfigHashTrackingTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final RuleId RULE = RuleId.of("fixture", "LimitedController.ip");
    private static final String COUNT = RULE + ".count";
    /** What "at once" is allowed to take on a busy 2-core machine; the refresh that would also apply it is 1 h away. */
    private static final Duration APPLIED = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @BeforeAll
    static void start() {
        env.start("ratelimit.config.refresh-interval=1h");
        env.start("ratelimit.config.refresh-interval=1h");
    }

    @Test
    void anEditByHandWithoutAnnouncementIsAppliedOnEveryInstance() {
        awaitTracked();

        handEdit(connection -> connection.sync().hset(HASH, COUNT, "31"));
        awaitCount(31);

        handEdit(connection -> connection.sync().hdel(HASH, COUNT));
        awaitCount(3);
    }

    @Test
    void theTrackingIsArmedAgainAfterRedisRestarted() {
        awaitTracked();
        env.redis().restart();
        Awaitility.await("the hash put back").atMost(APPLIED).ignoreExceptions()
                .until(() -> env.redis().commands().hexists(HASH, SysConfigFields.VERSION));
        awaitTracked();

        handEdit(connection -> connection.sync().hset(HASH, COUNT, "32"));
        awaitCount(32);
    }

    /** Each instance's tracking connection armed on Redis: the flags {@code t} (tracking) and {@code B} (broadcast). */
    private static void awaitTracked() {
        Awaitility.await("every instance tracks the hash").atMost(APPLIED).ignoreExceptions().until(() ->
                env.redis().commands().clientList().lines().filter(client -> Arrays.stream(client.split(" "))
                        .anyMatch(field -> field.startsWith("flags=") && field.contains("t") && field.contains("B")))
                        .count() == env.apps().size());
    }

    /** A write on a connection of its own, as {@code redis-cli} makes it: nothing announced. */
    private static void handEdit(Consumer<StatefulRedisConnection<String, String>> edit) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + env.redis().port());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            edit.accept(connection);
        } finally {
            client.shutdown();
        }
    }

    private static void awaitCount(long count) {
        Awaitility.await("count " + count + " applied on every instance").atMost(APPLIED).until(() ->
                env.apps().stream().allMatch(app -> app.getBean(RuleCatalog.class).current().limit(RULE)
                        .map(limit -> limit.count() == count).orElse(false)));
    }
}
