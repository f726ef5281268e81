package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.deploy.v1.OrdersV1;
import dev.ratelimit.interceptor.deploy.v2.OrdersV2;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two versions of one app on one Redis, as a deploy brings them: version 1 declares 5 per 60 s, version
 * 2 10 per 30 s for the same rule. A knob no operator changed follows each new declaration; an
 * operator's value is kept until it is reset to the declaration; instances of both versions starting
 * together leave one version's declaration whole, never half of each.
 */
class DeployMergeTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final RuleId RULE = RuleId.of("fixture", "OrderController.create");

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void aDeployThatChangesTheAnnotationTakesEffect() {
        ConfigurableApplicationContext v1 = env.start(OrdersV1.class);
        awaitDeclared("5");
        env.stop(v1);

        ConfigurableApplicationContext v2 = env.start(OrdersV2.class);

        awaitDeclared("10");
        assertThat(knobs()).containsEntry(RULE + ".count", "10").containsEntry(RULE + ".interval", "30");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
                "10".equals(v2.getBean(RuleSnapshotHolder.class).current().override(RULE).value(Knob.COUNT)));
    }

    @Test
    void anOperatorsValueIsKeptAcrossDeploysUntilItIsResetToTheDeclaration() {
        ConfigurableApplicationContext v1 = env.start(OrdersV1.class);
        awaitDeclared("5");
        SysConfigEditor editor = v1.getBean(SysConfigEditor.class);
        editor.setRuleCount(RULE, "7");
        env.stop(v1);

        ConfigurableApplicationContext v2 = env.start(OrdersV2.class);
        awaitDeclared("10");

        assertThat(knobs()).containsEntry(RULE + ".count", "7").containsEntry(RULE + ".interval", "30");
        List<SysConfigChange> reset = v2.getBean(SysConfigEditor.class).resetToDeclared(RULE);
        assertThat(reset).containsExactly(new SysConfigChange(RULE + ".count", "7", "10"));
        assertThat(knobs()).containsEntry(RULE + ".count", "10");

        env.stop(v2);
        env.start(OrdersV1.class);
        awaitDeclared("5");
        assertThat(knobs()).as("reset: deploys change it again").containsEntry(RULE + ".count", "5");
    }

    /**
     * A rolling deploy: instances of both versions write their declarations at once, many times over.
     * Each write is one atomic merge, so the knobs always hold one version's declaration whole, and the
     * operator's switch survives every one of them.
     */
    @Test
    void instancesOfBothVersionsStartingTogetherLeaveOneDeclarationWholeAndTheOperatorsValues() throws Exception {
        ConfigurableApplicationContext v1 = env.start(OrdersV1.class);
        ConfigurableApplicationContext v2 = env.start(OrdersV2.class);
        awaitDeclared("10", "5");
        v1.getBean(SysConfigEditor.class).setRuleSwitch(RULE, false);
        List<SysConfigDefaults> starts = List.of(defaults(v1), defaults(v2));

        Concurrently.forEachIndex(16, 400, i -> {
            starts.get(i % 2).write();
            Map<String, String> knobs = knobs();
            String count = knobs.get(RULE + ".count");
            assertThat(List.of(count, knobs.get(RULE + ".interval"))).isIn(List.of("5", "60"), List.of("10", "30"));
        });

        Map<String, String> knobs = knobs();
        assertThat(knobs.get(RULE + ".count")).isEqualTo(knobs.get("declared." + RULE + ".count"));
        assertThat(knobs.get(RULE + ".interval")).isEqualTo(knobs.get("declared." + RULE + ".interval"));
        assertThat(knobs).containsEntry(RULE + ".check", "0");
    }

    private SysConfigDefaults defaults(ConfigurableApplicationContext app) {
        return app.getBean(SysConfigDefaults.class);
    }

    private void awaitDeclared(String... counts) {
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> knobs().containsKey("declared." + RULE + ".count")
                        && List.of(counts).contains(knobs().get("declared." + RULE + ".count")));
    }

    private Map<String, String> knobs() {
        RedisCommands<String, String> redis = env.redis().commands();
        return redis.hgetall(HASH);
    }
}
