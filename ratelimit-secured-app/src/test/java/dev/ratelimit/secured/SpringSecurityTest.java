package dev.ratelimit.secured;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.ConsoleSession;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The limiter and the console behind a real Spring Security filter chain ({@link SecuredApplication}).
 * The security filter runs before the limiter (a servlet filter, the limiter a handler interceptor
 * inside the dispatcher), so a request security refuses is never counted; what it lets through is.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringSecurityTest {

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static HttpProbe http;
    private static int port;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        app = SpringApplication.run(SecuredApplication.class, "--server.port=0",
                "--spring.data.redis.port=" + redis.port());
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        http = new HttpProbe(port);
    }

    @AfterAll
    static void stop() {
        app.close();
        redis.close();
    }

    @Test
    void theSignedInUserIsCountedWhateverUserTheRequestNames() {
        for (int i = 0; i < AccountController.PER_USER; i++) {
            assertThat(http.get("/account?usercode=bob-" + i, basic("alice")).body()).isEqualTo("alice");
        }

        assertThat(http.get("/account?usercode=someone-else", basic("alice")).statusCode())
                .as("alice's limit, whatever user the request names").isEqualTo(429);
        assertThat(http.get("/account", basic("olga")).statusCode()).as("olga has a limit of her own").isEqualTo(200);
    }

    @Test
    void requestsSecurityRefusesAreNotCountedAndThoseItLetsThroughAre() {
        IntStream.range(0, 3 * AccountController.PER_ADDRESS).forEach(i ->
                assertThat(http.status("/orders")).as("refused by security").isEqualTo(401));

        for (int i = 0; i < AccountController.PER_ADDRESS; i++) {
            assertThat(http.status("/orders", basic("alice"))).as("the address's limit is all there").isEqualTo(200);
        }
        assertThat(http.status("/orders", basic("alice"))).isEqualTo(429);

        IntStream.range(0, AccountController.PER_ADDRESS).forEach(i ->
                assertThat(http.status("/public/prices")).as("anonymous, let through").isEqualTo(200));
        assertThat(http.status("/public/prices")).as("and counted").isEqualTo(429);
    }

    /** The app has no database, so the audit trail is the application log. */
    @Test
    void theConsoleIsForRoleOpsAndItsFormsKeepTheirOwnCsrfCheck(CapturedOutput output) {
        String rules = SecuredApplication.CONSOLE + "/rules";
        assertThat(http.status(rules)).as("anonymous: security asks to sign in").isEqualTo(401);
        assertThat(console("alice").get(rules).statusCode()).as("not OPS").isEqualTo(403);

        ConsoleSession olga = console("olga");
        assertThat(olga.get(rules).statusCode()).isEqualTo(200);
        assertThat(olga.postRaw(SecuredApplication.CONSOLE + "/rules/switches", Map.of("global", "true", "log", "false"))
                .statusCode()).as("without the console's token").isEqualTo(403);
        assertThat(olga.post(SecuredApplication.CONSOLE + "/rules/switches", "global", "true", "log", "false")
                .statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget("ratelimit:sysconfig", "log.check")).isEqualTo("0");
        assertThat(output.getOut()).contains("olga changed log.check from");
    }

    @Test
    void roleAuditLooksAndChangesNothing(CapturedOutput output) {
        ConsoleSession vera = console("vera");
        assertThat(vera.get(SecuredApplication.CONSOLE + "/rules").body()).contains("view only")
                .doesNotContain("/rules/switches\"");
        String before = redis.commands().hget("ratelimit:sysconfig", "global.check");

        assertThat(vera.post(SecuredApplication.CONSOLE + "/rules/switches", "global", "false", "log", "true")
                .statusCode()).isEqualTo(403);

        assertThat(redis.commands().hget("ratelimit:sysconfig", "global.check")).isEqualTo(before);
        assertThat(output.getOut()).contains("vera was refused form /ratelimit-console/rules/switches: their role does not allow it");
    }

    /** The header of HTTP Basic for {@code user}, as {@link HttpProbe} takes headers: name, value. */
    private static String[] basic(String user) {
        String credentials = user + ":" + user + "-password";
        return new String[] {"Authorization",
                "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8))};
    }

    private static ConsoleSession console(String user) {
        String[] header = basic(user);
        return new ConsoleSession(port, Map.of(header[0], header[1]));
    }
}
