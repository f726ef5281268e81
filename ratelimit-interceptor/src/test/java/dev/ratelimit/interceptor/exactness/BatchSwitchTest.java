package dev.ratelimit.interceptor.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.HotController;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator's per-rule switch of batches ({@code <rule>.batch=off}), with the shipped defaults: it applies
 * to the next requests without a restart (each asks Redis, none is decided from a batch), the permits held
 * go back, switched on again the counter is batched again, and the limit is exact throughout.
 */
class BatchSwitchTest {

    private static final int THREADS = 8;
    private static final String PATH = HotController.PATH + "?usercode=switched";

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @Test
    void switchingBatchesOffAndOnAppliesToTheNextRequestsAndKeepsTheLimitExact() throws Exception {
        ConfigurableApplicationContext app = env.start();
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);

        int admitted = burst(http, 100);
        assertThat(decidedFromBatches(app)).as("decided from batches while on").isPositive();

        editor.edit().knob(HotController.RULE, Knob.BATCH, "off").apply();
        awaitBatchField(app, "0");
        long fromBatches = decidedFromBatches(app);
        long scriptCalls = env.redis().calls("evalsha");
        admitted += burst(http, 50);
        assertThat(decidedFromBatches(app)).as("decided from batches while off").isEqualTo(fromBatches);
        assertThat(env.redis().calls("evalsha") - scriptCalls).as("script calls while off")
                .isGreaterThanOrEqualTo(THREADS * 50);
        Awaitility.await("the permits held given back").atMost(Duration.ofSeconds(5))
                .until(() -> permitsHeld(app) == 0);

        editor.edit().removeKnob(HotController.RULE, Knob.BATCH).apply();
        awaitBatchField(app, null);
        admitted += burst(http, 100);
        assertThat(decidedFromBatches(app)).as("decided from batches once on again").isGreaterThan(fromBatches);

        int drained = 0;
        while (Statuses.admitted(http.status(PATH))) {
            drained++;
        }
        assertThat(admitted).isEqualTo(THREADS * 250);
        assertThat(admitted + drained).isEqualTo(HotController.LIMIT);
    }

    private static int burst(HttpProbe http, int perThread) throws Exception {
        return ConcurrentClients.admitted(THREADS, perThread, thread -> Statuses.admitted(http.status(PATH)));
    }

    private static void awaitBatchField(ConfigurableApplicationContext app, String value) {
        String field = Knob.BATCH.field(HotController.RULE);
        Awaitility.await("the switch in force").atMost(Duration.ofSeconds(10))
                .until(() -> Objects.equals(app.getBean(RuleSnapshotHolder.class).current().fields().get(field), value));
    }

    private static long decidedFromBatches(ConfigurableApplicationContext app) {
        return ((Number) hotKeys(app).get("decidedFromBatches")).longValue();
    }

    private static long permitsHeld(ConfigurableApplicationContext app) {
        return ((Number) hotKeys(app).get("permitsHeld")).longValue();
    }

    private static Map<?, ?> hotKeys(ConfigurableApplicationContext app) {
        return (Map<?, ?>) app.getBean(RateLimitStore.class).describe().details().get("hotKeys");
    }
}
