package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator switches an annotated rule's algorithm at run time ({@code <rule>.algorithm}): both instances on one
 * Redis count by the new one at once, in counters of its own, and admit exactly the limit from 16 threads.
 */
class AlgorithmKnobTest {

    private static final RuleId RULE = RuleId.of("fixture", "AlgorithmController.fixedWindow");
    private static final int SENT = 80;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void everyInstanceCountsByTheAlgorithmAnOperatorSet() throws Exception {
        List<ConfigurableApplicationContext> apps = List.of(env.start(), env.start());
        assertThat(apps.get(0).getBean(SysConfigEditor.class).edit().knob(RULE, Knob.ALGORITHM, "Sliding_Log").apply())
                .singleElement().extracting(SysConfigChange::newValue).isEqualTo("sliding_log");
        apps.forEach(app -> app.getBean(RuleSnapshotHolder.class).refresh());
        for (ConfigurableApplicationContext app : apps) {
            assertThat(app.getBean(RuleCatalog.class).current().limit(RULE).orElseThrow().algorithm())
                    .isEqualTo(Algorithm.SLIDING_LOG);
        }

        List<HttpProbe> instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        AtomicInteger admitted = new AtomicInteger();
        Concurrently.forEachIndex(16, SENT, i -> {
            int status = instances.get(i % 2).status(AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=switched");
            if (status == 200) {
                admitted.incrementAndGet();
            } else {
                assertThat(status).isEqualTo(429);
            }
        });

        assertThat(admitted.get()).isEqualTo(AlgorithmController.LIMIT);
        RedisKeys keys = new RedisKeys("ratelimit");
        assertThat(env.redis().commands().type(keys.counter(RULE, Dimension.USER, Algorithm.SLIDING_LOG, "switched")))
                .as("a sliding log's sorted set").isEqualTo("zset");
        assertThat(env.redis().commands().exists(keys.counter(RULE, Dimension.USER, Algorithm.FIXED_WINDOW, "switched")))
                .as("no fixed window counted").isZero();
    }
}
