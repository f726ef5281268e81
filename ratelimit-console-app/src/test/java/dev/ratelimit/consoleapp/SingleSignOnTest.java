package dev.ratelimit.consoleapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.ConsoleSession;
import dev.ratelimit.idp.Browser;
import dev.ratelimit.idp.IdentityProvider;
import dev.ratelimit.idp.IdentityProvider.Account;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The console app signing operators in with OpenID Connect, against a real Spring Authorization Server
 * whose ID tokens carry each user's groups: the whole authorization-code flow through the provider's
 * login form, then the roles the groups give, enforced by the console on real rules of two apps.
 */
class SingleSignOnTest {

    private static final String REGISTRATION = "company-sso";
    private static final String CONSOLE = "/ratelimit-console";
    private static final String SYSCONFIG = "ratelimit:sysconfig";
    private static final String RULE = "LimitedController.method";

    private static RedisServerProcess redis;
    private static List<ConfigurableApplicationContext> apps;
    private static ConfigurableApplicationContext provider;
    private static ConfigurableApplicationContext console;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        apps = Stream.of("shop", "billing").map(module -> OtherApps.start(redis.port(), module)).toList();
        provider = IdentityProvider.start(REGISTRATION, List.of(
                new Account("olga", List.of("staff", "ratelimit-operator")),
                new Account("vera", List.of("ratelimit-viewer")),
                new Account("sam", List.of("ratelimit-viewer", "ratelimit-operator:shop")),
                new Account("nick", List.of("staff"))));
        String registration = "--spring.security.oauth2.client.registration." + REGISTRATION;
        console = ConsoleApplication.application().run("--server.port=0", "--server.address=127.0.0.1",
                "--spring.data.redis.port=" + redis.port(),
                registration + ".client-id=" + IdentityProvider.CLIENT_ID,
                registration + ".client-secret=" + IdentityProvider.CLIENT_SECRET,
                registration + ".scope=openid,profile",
                "--spring.security.oauth2.client.provider." + REGISTRATION + ".issuer-uri=" + IdentityProvider.issuer(provider),
                // the provider's classes are on this test's classpath only, not the console's
                "--spring.autoconfigure.exclude=org.springframework.boot.security.oauth2.server.authorization.autoconfigure"
                        + ".servlet.OAuth2AuthorizationServerAutoConfiguration,org.springframework.boot.security.oauth2.server"
                        + ".authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration");
        Awaitility.await("both apps' API index").atMost(Duration.ofSeconds(10))
                .until(() -> redis.commands().exists("ratelimit:{apiindex}:shop") == 1
                        && redis.commands().exists("ratelimit:{apiindex}:billing") == 1);
    }

    @AfterAll
    static void stop() {
        console.close();
        provider.close();
        apps.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }

    @Test
    void anOperatorSignsInAtTheProviderAndChangesARule() {
        HttpResponse<String> landed = new Browser().signIn(consoleUri("/rules"), "olga", IdentityProvider.PASSWORD);
        assertThat(landed.statusCode()).isEqualTo(200);
        assertThat(landed.uri().getPath()).as("back where it started").isEqualTo(CONSOLE + "/rules");
        assertThat(landed.body()).contains("olga").doesNotContain("view only");

        ConsoleSession olga = signedIn("olga");
        olga.get(CONSOLE + "/rules");
        assertThat(changeCount(olga, "shop", "7").statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "shop." + RULE + ".count")).isEqualTo("7");
    }

    @Test
    void aViewerSeesThePagesAndChangesNothing() {
        ConsoleSession vera = signedIn("vera");
        for (String page : List.of("/", "/rules", "/blocked", "/audit")) {
            HttpResponse<String> shown = vera.get(CONSOLE + page);
            assertThat(shown.statusCode()).as(page).isEqualTo(200);
            assertThat(shown.body()).as(page).contains("view only");
        }
        String before = redis.commands().hget(SYSCONFIG, "billing." + RULE + ".count");

        assertThat(changeCount(vera, "billing", "3").statusCode()).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "billing." + RULE + ".count")).isEqualTo(before);
    }

    @Test
    void anOperatorOfOneModuleChangesThatModuleOnly() {
        ConsoleSession sam = signedIn("sam");
        assertThat(sam.get(CONSOLE + "/rules").body()).contains("changes shop");
        String before = redis.commands().hget(SYSCONFIG, "billing." + RULE + ".count");

        assertThat(changeCount(sam, "shop", "5").statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "shop." + RULE + ".count")).isEqualTo("5");
        assertThat(changeCount(sam, "billing", "4").statusCode()).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "billing." + RULE + ".count")).isEqualTo(before);
    }

    @Test
    void aUserWithoutAConsoleGroupIsRefused() {
        HttpResponse<String> landed = new Browser().signIn(consoleUri("/"), "nick", IdentityProvider.PASSWORD);

        assertThat(landed.statusCode()).isEqualTo(403);
        assertThat(landed.uri().getPath()).isEqualTo(CONSOLE + "/");
    }

    @Test
    void logOutEndsTheConsoleSession() {
        ConsoleSession olga = signedIn("olga");
        String page = olga.get(CONSOLE + "/").body();

        HttpResponse<String> loggedOut = olga.postRaw(CONSOLE + "/logout",
                Map.of("ratelimit_csrf", olga.csrf(), "_csrf", Browser.springCsrf(page)));

        assertThat(loggedOut.statusCode()).isEqualTo(302);
        assertThat(loggedOut.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/login?logout"));
        HttpResponse<String> after = olga.get(CONSOLE + "/");
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(after.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/oauth2/authorization/" + REGISTRATION));
    }

    /** A console session of a user signed in at the provider: the browser's session cookie, handed over. */
    private static ConsoleSession signedIn(String username) {
        Browser browser = new Browser();
        HttpResponse<String> landed = browser.signIn(consoleUri("/"), username, IdentityProvider.PASSWORD);
        assertThat(landed.statusCode()).as(username + " signed in").isEqualTo(200);
        ConsoleSession session = new ConsoleSession(port());
        session.setCookie("JSESSIONID", browser.cookie(consoleUri("/"), "JSESSIONID"));
        return session;
    }

    private static HttpResponse<String> changeCount(ConsoleSession session, String module, String count) {
        return session.post(CONSOLE + "/rules/rule", "module", module, "rule", RULE,
                "enabled", "true", "count", count, "interval", "60");
    }

    private static URI consoleUri(String page) {
        return URI.create("http://127.0.0.1:" + port() + CONSOLE + page);
    }

    private static int port() {
        return FixtureApplication.port(console);
    }
}
