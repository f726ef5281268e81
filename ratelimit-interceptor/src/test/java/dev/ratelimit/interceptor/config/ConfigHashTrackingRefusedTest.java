package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Redis that refuses tracking (here an ACL without {@code CLIENT TRACKING}, as a shared or managed Redis
 * may have): the instance says once that unannounced changes wait for the refresh, logs no error, keeps no
 * connection retrying, and announced changes are applied at once as before.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigHashTrackingRefusedTest {

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps(List.of("--user", "default", "on", "nopass", "~*", "&*", "+@all",
            "-client|tracking"));

    @Test
    void withoutTrackingAnnouncedChangesAreStillAppliedAtOnce(CapturedOutput output) {
        ConfigurableApplicationContext app = env.start("ratelimit.config.refresh-interval=1h");
        Awaitility.await("the refusal said").atMost(Duration.ofSeconds(30))
                .until(() -> output.getOut().contains("Redis does not track ratelimit:sysconfig for this instance"));

        RuleId rule = RuleId.of("fixture", "LimitedController.ip");
        app.getBean(SysConfigEditor.class).setRuleCount(rule, "33");
        Awaitility.await("the announced change applied").atMost(Duration.ofSeconds(10)).until(() ->
                app.getBean(RuleCatalog.class).current().limit(rule).map(limit -> limit.count() == 33).orElse(false));

        assertThat(output.getOut()).doesNotContain(" ERROR ").containsOnlyOnce("Redis does not track");
        assertThat(env.redis().commands().clientList()).doesNotContain("cmd=client|tracking");
    }
}
