package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * At start-up every knob of the app appears in the config hash, and no operator value is overwritten: a
 * value that differs from the declaration, with no declaration recorded beside it, was set by an operator.
 */
@ExtendWith(OutputCaptureExtension.class)
class SysConfigDefaultsTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final String USER = "fixture.LimitedController.user";

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void writesEveryMissingDefaultAndKeepsTheOperatorsValues(CapturedOutput output) {
        RedisCommands<String, String> redis = env.redis().commands();
        redis.hset(HASH, Map.of(
                USER + ".count", "7",
                "fixture.LimitedController.shortWindow.check", "0",
                "fixture.LimitedController.ip.mode", "shadow",
                "global.check", "0",
                "dyn.fixture.OpenController.plain", "2/60"));

        ConfigurableApplicationContext app = env.start();

        Map<String, String> expected = new TreeMap<>(Map.of(
                "global.check", "0",
                "global.mode", "enforce",
                "log.check", "1",
                "dyn.fixture.OpenController.plain", "2/60"));
        knobs(expected, USER, "1", "60", "7");
        knobs(expected, "fixture.LimitedController.shortWindow", "0", "1", "2");
        knobs(expected, "fixture.LimitedController.ip", "1", "60", "3");
        knobs(expected, "fixture.LimitedController.method", "1", "60", "5");
        knobs(expected, "fixture.LimitedController.globalA", "1", "60", "4");
        knobs(expected, "fixture.LimitedController.globalB", "1", "60", "4");
        knobs(expected, "fixture.LimitedController.stacked#user", "1", "60", "2");
        knobs(expected, "fixture.LimitedController.stacked#ip", "1", "60", "100");
        expected.put("fixture.LimitedController.ip.mode", "shadow");
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(redis.hgetall(HASH)).containsAllEntriesOf(expected));
        // Other fixture controllers add knobs of their own; nothing else may appear, and no dynamic rule.
        assertThat(redis.hgetall(HASH).keySet()).allMatch(field -> expected.containsKey(field)
                || field.equals("config.version") || field.matches("(declared\\.)?(global|log)\\..*")
                || field.matches("(declared\\.)?fixture\\..*\\.(check|interval|count|mode)"));
        assertThat(redis.hgetall(HASH)).containsEntry("declared." + USER + ".count", "50");
        assertThat(output).contains("Rate limit config: " + USER + ".count is 7 in the config hash, set by an operator "
                + "(declared: 50); the config hash decides until it is reset to the declaration");
        assertThat(output).contains("Rate limit config: fixture.LimitedController.ip.mode is shadow in the config hash, "
                + "set by an operator (declared: enforce)");
        assertThat(app.getBean(RuleSnapshotHolder.class).current().override(RuleId.of("fixture", "LimitedController.user"))
                .value(Knob.COUNT)).isEqualTo("7");
    }

    private static void knobs(Map<String, String> fields, String rule, String check, String interval, String count) {
        fields.put(rule + ".check", check);
        fields.put(rule + ".interval", interval);
        fields.put(rule + ".count", count);
        fields.putIfAbsent(rule + ".mode", "enforce");
    }
}
