package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two app instances on one Redis, with the periodic refresh far away (1 h): a change made through one
 * instance's editor reaches the other instance's rules through the announcement alone.
 */
class ConfigPropagationTest {

    static final String CHANNEL = "ratelimit:config-changed";
    private static final Duration BOUND = Duration.ofSeconds(1);
    private static final int CHANGES = 20;

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void start() {
        first = env.start("ratelimit.config.refresh-interval=1h");
        second = env.start("ratelimit.config.refresh-interval=1h");
        Awaitility.await("both instances subscribed").atMost(Duration.ofSeconds(10))
                .until(() -> env.redis().commands().pubsubNumsub(CHANNEL).get(CHANNEL) == 2);
    }

    @Test
    void aChangeMadeOnOneInstanceReachesTheOtherWithinOneSecond() {
        SysConfigEditor editor = first.getBean(SysConfigEditor.class);
        RuleCatalog other = second.getBean(RuleCatalog.class);
        RuleId rule = RuleId.of("fixture", "LimitedController.user");
        List<Long> micros = new ArrayList<>();
        for (int i = 1; i <= CHANGES; i++) {
            Long count = 1000L + i;
            long start = System.nanoTime();
            editor.setRuleCount(rule, count.toString());
            awaitWithin(() -> count.equals(other.current().limit(rule).map(LimitDefinition::count).orElse(null)));
            micros.add((System.nanoTime() - start) / 1000);
        }
        Collections.sort(micros);
        System.out.printf("Config propagation to the other instance over %d changes: median %.1f ms, max %.1f ms%n",
                CHANGES, (micros.get(CHANGES / 2 - 1) + micros.get(CHANGES / 2)) / 2000.0,
                micros.get(CHANGES - 1) / 1000.0);
        assertThat(micros.get(CHANGES - 1)).isLessThan(BOUND.toNanos() / 1000);
    }

    @Test
    void aDynamicRuleSetOnOneInstanceLimitsRequestsOnTheOther() {
        SysConfigEditor editor = first.getBean(SysConfigEditor.class);
        RuleSnapshotHolder other = second.getBean(RuleSnapshotHolder.class);
        HttpProbe http = new HttpProbe(FixtureApplication.port(second));

        editor.setDynamicRule(RuleId.of("fixture", "OpenController.special"), "1/60");
        awaitWithin(() -> other.current().dynamicRules().containsKey("fixture.OpenController.special"));
        assertThat(http.status("/open/special?usercode=zoe")).isEqualTo(200);
        assertThat(http.status("/open/special?usercode=zoe")).isEqualTo(429);

        editor.removeDynamicRule("fixture.OpenController.special");
        awaitWithin(() -> !other.current().dynamicRules().containsKey("fixture.OpenController.special"));
        assertThat(http.status("/open/special?usercode=zoe")).isEqualTo(200);
    }

    static void awaitWithin(BooleanSupplier condition) {
        Awaitility.await().atMost(BOUND).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(condition::getAsBoolean);
    }
}
