package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Asking without spending: {@link RateLimitService#peek} and the opt-in {@code /ratelimit/allowance} endpoint. */
class AllowanceTest {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        app = env.start("ratelimit.allowance-endpoint=true");
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @Test
    void theEndpointTellsTheCallerWhatItHasLeftAndCountsNothing() {
        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/user?usercode=jo")).isEqualTo(200));
        String allowance = "/ratelimit/allowance?rule=fixture.LimitedController.user&usercode=jo";

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get(allowance);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(response.body()).contains("\"remaining\":47").contains("\"count\":50")
                    .contains("\"retryAfter\":0").contains("\"rule\":\"fixture.LimitedController.user\"");
        }
        assertThat(http.status("/user?usercode=jo")).isEqualTo(200);
        assertThat(http.get(allowance).body()).as("the requests counted, the peeks not").contains("\"remaining\":46");
    }

    @Test
    void anUnknownRuleIsNotFound() {
        assertThat(http.status("/ratelimit/allowance?rule=fixture.Nothing.here&usercode=jo")).isEqualTo(404);
    }

    @Test
    void aBlockedClientIsToldHowLongItsBlockLasts() {
        String path = PenaltyController.path(Algorithm.SLIDING_LOG) + "?usercode=kim";
        IntStream.range(0, PenaltyController.LIMIT + 1).forEach(i -> http.get(path));

        Allowance allowance = app.getBean(RateLimitService.class)
                .peek(RuleId.of("fixture", "PenaltyController.slidingLog"), "kim").orElseThrow();

        assertThat(allowance.remaining()).isZero();
        assertThat(allowance.retryAfter()).isBetween(Duration.ofSeconds(PenaltyController.BLOCK_SECONDS - 60),
                Duration.ofSeconds(PenaltyController.BLOCK_SECONDS));
    }

    /** An operator gives an annotated rule a penalty through its {@code penalty} field, without a deploy. */
    @Test
    void anOperatorCanGiveARuleAPenalty() {
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);
        assertThat(editor.setRulePenalty(RuleId.of("fixture", "LimitedController.user"), " 7200 ").newValue()).isEqualTo("7200");
        Awaitility.await("the instance has the penalty").atMost(Duration.ofSeconds(10)).until(() -> app
                .getBean(RuleCatalog.class).current().limit(RuleId.of("fixture", "LimitedController.user"))
                .map(limit -> limit.penalty().applies()).orElse(false));

        IntStream.range(0, 50).forEach(i -> http.status("/user?usercode=pat"));
        HttpResponse<String> denied = http.get("/user?usercode=pat");

        assertThat(denied.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow())).isBetween(7190L, 7200L);
        editor.setRulePenalty(RuleId.of("fixture", "LimitedController.user"), "0");
    }

    @Test
    void theEndpointIsOffUnlessAsked() {
        ConfigurableApplicationContext plain = env.start();
        try {
            assertThat(plain.getBeansOfType(AllowanceController.class)).isEmpty();
            assertThat(plain.getBean(RateLimitService.class).peek(RuleId.of("fixture", "LimitedController.user"), "jo")).isPresent();
        } finally {
            env.stop(plain);
        }
    }
}
