package dev.ratelimit.apiindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.apiindex.fixture.FullApi;
import dev.ratelimit.apiindex.fixture.nested.NestedModuleApi;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Two modules whose names nest ({@code fixture} and {@code fixture.CatalogController}) each with a rule written
 * {@code fixture.CatalogController.list}: the config hash cannot tell the two apart, so the app that reports its
 * index second says so at start-up, naming both and what to rename.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApiIndexNamesTest {

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void aRuleWrittenLikeAnotherModulesIsWarnedOfAtStartUp(CapturedOutput output) {
        env.start(FullApi.class);
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> env.redis().commands().exists("ratelimit:{apiindex}:fixture") == 1);
        assertThat(output).doesNotContain("is written like");

        env.start(NestedModuleApi.class, "ratelimit.module=fixture.CatalogController");

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(output.getOut()).contains(
                "Rule list of module fixture.CatalogController is written like rule CatalogController.list of module "
                        + "fixture (fixture.CatalogController.list)").contains("ratelimit.module"));
    }
}
