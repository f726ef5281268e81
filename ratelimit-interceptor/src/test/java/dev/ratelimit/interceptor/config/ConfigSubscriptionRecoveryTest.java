package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.ConfigPropagationTest.CHANNEL;
import static dev.ratelimit.interceptor.config.ConfigPropagationTest.awaitWithin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Redis going away: the subscription comes back by itself after a restart, and an app started while
 * Redis is down starts anyway and catches up (defaults written, subscription made) once Redis is back.
 * The periodic refresh is set to 1 h so only the subscription can bring a change.
 */
class ConfigSubscriptionRecoveryTest {

    private static final RuleId USER = RuleId.of("fixture", "LimitedController.user");
    private static final Duration RECOVERY = Duration.ofSeconds(30);
    /** Spring's own bound on a stop phase: an app that takes longer is waiting on something without end. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(30);

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void theSubscriptionSurvivesARedisRestart() {
        RedisServerProcess redis = env.redis();
        ConfigurableApplicationContext app = env.start("ratelimit.config.refresh-interval=1h");
        RuleSnapshotHolder snapshots = app.getBean(RuleSnapshotHolder.class);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> redis.commands().hexists(
                "ratelimit:sysconfig", "global.check"));
        assertThat(snapshots.refresh()).isTrue();
        Map<String, String> beforeRestart = snapshots.current().fields();

        redis.restart();

        Awaitility.await("subscribed again").atMost(RECOVERY)
                .until(() -> redis.commands().pubsubNumsub(CHANNEL).get(CHANNEL) == 1);
        // The restarted Redis is empty: the instance puts its snapshot back, which stays in force.
        Awaitility.await("the hash put back").atMost(RECOVERY)
                .until(() -> beforeRestart.equals(redis.commands().hgetall("ratelimit:sysconfig")));
        assertThat(snapshots.current().fields()).isEqualTo(beforeRestart);
        // Recorded once the script that put it back has answered: a moment after the hash shows in Redis.
        Awaitility.await("the restore recorded").atMost(RECOVERY).until(() -> snapshots.lastRestore() != null);
        assertChangesArrive(app);
    }

    @Test
    void anAppStartedWhileRedisIsDownStartsAndCatchesUpWhenRedisIsBack() {
        RedisServerProcess redis = env.redis();
        redis.stop();
        long startedAt = System.nanoTime();
        ConfigurableApplicationContext app = env.start("ratelimit.config.refresh-interval=1h");
        System.out.printf("Started with Redis down in %d ms%n", (System.nanoTime() - startedAt) / 1_000_000);
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        assertThat(http.status("/user?usercode=amy")).isEqualTo(200);

        redis.restart();

        Awaitility.await("defaults written").atMost(RECOVERY)
                .until(() -> redis.commands().hexists("ratelimit:sysconfig", USER + ".count"));
        Awaitility.await("subscribed").atMost(RECOVERY)
                .until(() -> redis.commands().pubsubNumsub(CHANNEL).get(CHANNEL) == 1);
        assertChangesArrive(app);
    }

    @Test
    void anAppStopsWhileItsSubscriptionWaitsOnARedisThatDoesNotAnswer() {
        RedisServerProcess redis = env.redis();
        redis.pause();
        try {
            ConfigurableApplicationContext app = env.start("ratelimit.config.refresh-interval=1h");
            long closing = System.nanoTime();
            assertTimeoutPreemptively(STOP_BOUND, () -> env.stop(app), "the app's stop waits on the subscription");
            System.out.printf("Stopped with Redis paused in %d ms%n", (System.nanoTime() - closing) / 1_000_000);
        } finally {
            redis.resume();
        }
    }

    private static void assertChangesArrive(ConfigurableApplicationContext app) {
        RuleCatalog catalog = app.getBean(RuleCatalog.class);
        // The app's own connection may still be reconnecting; the write is retried until Redis takes it.
        Awaitility.await().atMost(RECOVERY).ignoreExceptions()
                .until(() -> app.getBean(SysConfigEditor.class).setRuleCount(USER, "77") != null);
        awaitWithin(() -> Long.valueOf(77).equals(catalog.current().limit(USER).map(LimitDefinition::count).orElse(null)));
    }
}
