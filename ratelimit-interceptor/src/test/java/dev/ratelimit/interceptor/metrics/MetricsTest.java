package dev.ratelimit.interceptor.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The meters after a scripted sequence of requests, read from the app's (simple) meter registry. */
class MetricsTest {

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void countsEveryOutcomeByRuleTimesEveryDecisionAndShowsTheCircuitAndLogDrops() {
        ConfigurableApplicationContext app = env.start("fixture.recording-log=true", "fixture.recording-log.capacity=1");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        MeterRegistry registry = app.getBean(MeterRegistry.class);
        assertThat(registry).isInstanceOf(SimpleMeterRegistry.class);

        for (int i = 0; i < 3; i++) {
            http.get("/stacked?usercode=mia");                 // user: 2 allowed, 1 blocked; ip: 3 allowed
        }
        http.get("/stacked");                                   // user: skipped (no user); ip: allowed
        app.getBean(SysConfigEditor.class).setRuleMode(RuleId.of("fixture", "LimitedController.method"), RuleMode.SHADOW);
        app.getBean(RuleSnapshotHolder.class).refresh();
        for (int i = 0; i < 7; i++) {
            http.get("/method");                                // 5 allowed, 2 shadow-blocked
        }
        app.getBean(SysConfigEditor.class).deny(DenyList.Kind.USER, "ned", null, "");
        app.getBean(RuleSnapshotHolder.class).refresh();
        http.get("/stacked?usercode=ned");                      // denied twice, under deny.user: no store call
        http.get("/open/plain?usercode=ned");
        env.redis().stop();
        for (int i = 0; i < 6; i++) {
            http.get("/user?usercode=mia");                     // decided in process: 6 allowed, the circuit opens at 5
        }

        assertThat(count(registry, "LimitedController.stacked#user", "allowed")).isEqualTo(2);
        assertThat(count(registry, "LimitedController.stacked#user", "blocked")).isEqualTo(1);
        assertThat(count(registry, "LimitedController.stacked#user", "skipped")).isEqualTo(1);
        assertThat(count(registry, "LimitedController.stacked#ip", "allowed")).isEqualTo(4);
        assertThat(count(registry, "LimitedController.method", "allowed")).isEqualTo(5);
        assertThat(count(registry, "LimitedController.method", "shadow_blocked")).isEqualTo(2);
        assertThat(count(registry, "LimitedController.user", "allowed")).isEqualTo(6);
        assertThat(count(registry, "deny.user", "denied")).isEqualTo(2);
        assertThat(registry.get("ratelimit.requests").counters()).hasSize(8);
        assertThat(registry.find("ratelimit.requests").tag("outcome", "error").counters())
                .as("the failure policy decided: not an error").isEmpty();
        assertThat(registry.get("ratelimit.decision").timer().count()).as("one store call per request").isEqualTo(17);
        assertThat(registry.get("ratelimit.circuit.open").gauge().value()).isEqualTo(1);
        assertThat(registry.get("ratelimit.log.dropped").functionCounter().count())
                .as("five interceptions, room for one").isEqualTo(4);
        assertThat(app.getBean(OutcomeCounts.class).snapshot()).containsExactly(
                java.util.Map.entry("allowed", 17L), java.util.Map.entry("blocked", 1L),
                java.util.Map.entry("shadow_blocked", 2L), java.util.Map.entry("skipped", 1L),
                java.util.Map.entry("error", 0L), java.util.Map.entry("denied", 2L));

        env.redis().restart();
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.get("ratelimit.circuit.open").gauge().value() == 0);
        assertThat(app.getBean(CircuitBreaker.class).isClosed()).isTrue();
    }

    private static double count(MeterRegistry registry, String rule, String outcome) {
        return registry.get("ratelimit.requests").tags("module", "fixture", "rule", rule, "outcome", outcome)
                .counter().count();
    }
}
