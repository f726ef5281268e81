package dev.ratelimit.console.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.ConsoleSession;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The app's own access policy replaces the built-in login; without a password one is generated. */
@ExtendWith(OutputCaptureExtension.class)
class ConsoleAccessPolicyTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static RedisServerProcess redis;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void anAppPolicyDecidesWhoOperatesAndTheCsrfCheckStays() {
        try (ConfigurableApplicationContext app = FixtureApplication.start(OpsTeamApplication.class, redis.port())) {
            int port = FixtureApplication.port(app);
            ConsoleSession stranger = new ConsoleSession(port);
            assertThat(stranger.get(CONSOLE + "/rules").statusCode()).isEqualTo(403);
            assertThat(stranger.get(CONSOLE + "/login").statusCode()).isIn(403, 404);

            ConsoleSession ops = new ConsoleSession(port, Map.of(OpsTeamApplication.HEADER, "ops-team"));
            assertThat(ops.get(CONSOLE + "/audit").statusCode()).isEqualTo(200);
            assertThat(ops.postRaw(CONSOLE + "/rules/switches", Map.of("global", "true", "log", "false")).statusCode())
                    .isEqualTo(403);
            assertThat(ops.post(CONSOLE + "/rules/switches", "global", "true", "log", "false").statusCode())
                    .isEqualTo(302);

            assertThat(redis.commands().hget("ratelimit:sysconfig", "log.check")).isEqualTo("0");
            assertThat(ops.get(CONSOLE + "/audit").body()).contains("<td>ops-team</td>").contains("log.check");
        }
    }

    @Test
    void withoutAPasswordOneIsGeneratedAndLoggedOnce(CapturedOutput output) {
        try (ConfigurableApplicationContext app = FixtureApplication.start(redis.port())) {
            Pattern generated = Pattern.compile("generated password for user 'admin': (\\S+)");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> generated.matcher(output.getOut()).find());
            Matcher password = generated.matcher(output.getOut());
            assertThat(password.find()).isTrue();
            assertThat(password.find()).as("logged once").isFalse();
            password.reset().find();

            ConsoleSession session = new ConsoleSession(FixtureApplication.port(app));
            assertThat(session.login("admin", password.group(1)).statusCode()).isEqualTo(302);
            assertThat(session.get(CONSOLE + "/rules").statusCode()).isEqualTo(200);
        }
    }
}
