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
 * An operator switches who an annotated rule counts together at run time ({@code <rule>.dimension}): a rule per user
 * becomes one per client address, so the many users of one address share one counter on both instances on one Redis,
 * which admit exactly the limit from 16 threads; back to the declaration, each user counts alone again.
 */
class DimensionKnobTest {

    private static final RuleId RULE = RuleId.of("fixture", "AlgorithmController.fixedWindow");
    private static final String PATH = AlgorithmController.path(Algorithm.FIXED_WINDOW);
    private static final int SENT = 80;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void everyInstanceCountsByTheDimensionAnOperatorSet() throws Exception {
        List<ConfigurableApplicationContext> apps = List.of(env.start(), env.start());
        List<HttpProbe> instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        assertThat(admitted(instances, "before-")).as("per user, as declared: one request each").isEqualTo(SENT);

        assertThat(apps.get(0).getBean(SysConfigEditor.class).edit().knob(RULE, Knob.DIMENSION, " IP ").apply())
                .singleElement().extracting(SysConfigChange::newValue).isEqualTo("ip");
        apps.forEach(app -> app.getBean(RuleSnapshotHolder.class).refresh());
        for (ConfigurableApplicationContext app : apps) {
            assertThat(app.getBean(RuleCatalog.class).current().limit(RULE).orElseThrow().dimension())
                    .isEqualTo(Dimension.IP);
        }

        assertThat(admitted(instances, "switched-")).as("one address, one counter").isEqualTo(AlgorithmController.LIMIT);
        RedisKeys keys = new RedisKeys("ratelimit");
        assertThat(env.redis().commands().exists(keys.counter(RULE, Dimension.IP, Algorithm.FIXED_WINDOW, "127.0.0.1")))
                .as("the address's counter").isOne();
        assertThat(env.redis().commands().exists(keys.counter(RULE, Dimension.USER, Algorithm.FIXED_WINDOW, "switched-0")))
                .as("no user counted").isZero();

        apps.get(0).getBean(SysConfigEditor.class).edit().resetToDeclared(RULE).apply();
        apps.forEach(app -> app.getBean(RuleSnapshotHolder.class).refresh());
        assertThat(admitted(instances, "after-")).as("per user again").isEqualTo(SENT);
    }

    /** Sends {@link #SENT} requests from 16 threads, alternating the instances, each as another user. */
    private static int admitted(List<HttpProbe> instances, String users) throws Exception {
        AtomicInteger admitted = new AtomicInteger();
        Concurrently.forEachIndex(16, SENT, i -> {
            int status = instances.get(i % 2).status(PATH + "?usercode=" + users + i);
            if (status == 200) {
                admitted.incrementAndGet();
            } else {
                assertThat(status).isEqualTo(429);
            }
        });
        return admitted.get();
    }
}
