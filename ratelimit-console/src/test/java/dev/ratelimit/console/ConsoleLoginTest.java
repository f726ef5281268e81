package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Logins on two console instances behind one load balancer (one secret), with the proxy in front of
 * them trusted: sessions that end everywhere, one per login with its own CSRF token, waits instead of
 * lockouts per client address and user name, and the security headers of every page.
 */
class ConsoleLoginTest {

    private static final String CONSOLE = "/ratelimit-console";
    /** {@code s3cret} stored as docs/console.md (Security) advises, a hash: its check takes the time a real one does. */
    private static final String S3CRET_BCRYPT = "{bcrypt}$2a$10$w7HGms55FhAzhqwhWrPp6OVpjSZ3.0kfAxR/EZfSHZpyckWIucKtm";
    private static final String[] SHARED = {"ratelimit.console.password=" + S3CRET_BCRYPT, "ratelimit.console.secret=one-secret",
            "ratelimit.trusted-proxies=127.0.0.1"};

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        first = FixtureApplication.start(redis.port(), SHARED);
        second = FixtureApplication.start(redis.port(), SHARED);
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        redis.close();
    }

    @Test
    void aLogoutEndsTheSessionOnEveryInstanceEvenForACopyOfItsCookie() {
        ConsoleSession operator = client(first, "192.0.2.10");
        operator.login("admin", "s3cret");
        String cookie = operator.cookie("rlc_session");
        ConsoleSession copy = client(second, "192.0.2.10");
        copy.setCookie("rlc_session", cookie);
        assertThat(copy.get(CONSOLE + "/rules").statusCode()).isEqualTo(200);

        operator.get(CONSOLE + "/rules");
        assertThat(operator.post(CONSOLE + "/logout").statusCode()).isEqualTo(302);

        assertThat(copy.get(CONSOLE + "/rules").statusCode()).as("the old cookie on the other instance").isEqualTo(302);
        ConsoleSession replay = client(first, "192.0.2.10");
        replay.setCookie("rlc_session", cookie);
        assertThat(replay.get(CONSOLE + "/rules").statusCode()).as("the old cookie on the same instance").isEqualTo(302);
    }

    @Test
    void everyLoginIsASessionOfItsOwnWithItsOwnCsrfToken() {
        ConsoleSession one = client(first, "192.0.2.11");
        ConsoleSession two = client(first, "192.0.2.11");
        one.login("admin", "s3cret");
        two.login("admin", "s3cret");
        one.get(CONSOLE + "/rules");
        two.get(CONSOLE + "/rules");

        assertThat(one.cookie("rlc_session")).isNotEqualTo(two.cookie("rlc_session"));
        assertThat(one.csrf()).isNotEqualTo(two.csrf());
        assertThat(one.postRaw(CONSOLE + "/rules/switches", Map.of("ratelimit_csrf", two.csrf(), "global", "true", "log", "true"))
                .statusCode()).as("another session's token").isEqualTo(403);
    }

    @Test
    void aNewPasswordEndsTheSessionsOfTheOldOne() {
        ConsoleSession operator = client(first, "192.0.2.12");
        operator.login("admin", "s3cret");
        ConfigurableApplicationContext changed = FixtureApplication.start(redis.port(), "ratelimit.console.password=n3w",
                "ratelimit.console.secret=one-secret");
        try {
            ConsoleSession copy = client(changed, "192.0.2.12");
            copy.setCookie("rlc_session", operator.cookie("rlc_session"));
            assertThat(copy.get(CONSOLE + "/rules").statusCode()).isEqualTo(302);
        } finally {
            changed.close();
        }
    }

    /** Once every operator behind the proxy was locked out by one guesser; now only the guesser waits. */
    @Test
    void wrongPasswordsMakeThatClientWaitWithRetryAfterAndNobodyElse() {
        ConsoleSession guesser = client(first, "203.0.113.66");
        for (int i = 0; i < 3; i++) {
            assertThat(guesser.login("admin", "guess-" + i).statusCode()).isEqualTo(401);
        }

        HttpResponse<String> waiting = guesser.login("admin", "s3cret");
        assertThat(waiting.statusCode()).isEqualTo(429);
        assertThat(waiting.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(waiting.body()).contains("Too many failed attempts. Try again in 1 second(s).");

        ConsoleSession colleague = client(first, "198.51.100.20");
        assertThat(colleague.login("admin", "s3cret").statusCode()).as("same proxy, another client").isEqualTo(302);
    }

    /**
     * Once seen: of 100 wrong passwords posted at once as a wait ended, 61 were checked; the throttle read
     * the wait and recorded the failure in separate steps. Now the one post the throttle allows is checked.
     */
    @Test
    void aBurstOfWrongPasswordsAsTheWaitEndsGetsOneCheck() throws Exception {
        ConsoleSession guesser = client(first, "203.0.113.67");
        for (int i = 0; i < 3; i++) {
            assertThat(guesser.login("admin", "guess-" + i).statusCode()).isEqualTo(401);
        }
        HttpResponse<String> waiting = guesser.login("admin", "guess");
        assertThat(waiting.statusCode()).isEqualTo(429);
        List<ConsoleSession> posts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ConsoleSession post = client(first, "203.0.113.67");
            post.get(CONSOLE + "/login");
            posts.add(post);
        }
        // The wait itself has to pass: it is what the burst is sent at the end of.
        Thread.sleep(Duration.ofSeconds(Long.parseLong(waiting.headers().firstValue("Retry-After").orElseThrow())).toMillis());

        List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
        int checked = ConcurrentClients.admitted(posts.size(), 1, thread -> {
            int status = posts.get(thread).post(CONSOLE + "/login", "username", "admin", "password", "guess-" + thread)
                    .statusCode();
            statuses.add(status);
            return status == 401;
        });

        assertThat(checked).as("passwords checked").isEqualTo(1);
        assertThat(statuses).filteredOn(status -> status != 401).hasSize(99).containsOnly(429);
    }

    @Test
    void everyPageCarriesAContentSecurityPolicyAndCookiesAreSecureBehindATlsProxy() {
        ConsoleSession behindTls = new ConsoleSession(FixtureApplication.port(first),
                Map.of("X-Forwarded-For", "192.0.2.13", "X-Forwarded-Proto", "https"));
        assertThat(behindTls.get(CONSOLE + "/login").headers().allValues("Set-Cookie")).isNotEmpty()
                .allSatisfy(cookie -> assertThat(cookie).contains("; Secure"));

        ConsoleSession operator = client(first, "192.0.2.13");
        operator.login("admin", "s3cret");
        for (String page : List.of("/", "/rules", "/dynamic", "/logs", "/audit", "/login")) {
            HttpResponse<String> response = operator.get(CONSOLE + page);
            assertThat(response.headers().firstValue("Content-Security-Policy")).as(page)
                    .hasValueSatisfying(policy -> assertThat(policy).contains("script-src 'self'")
                            .contains("frame-ancestors 'none'").doesNotContain("unsafe-inline"));
            assertThat(response.headers().firstValue("Referrer-Policy")).as(page).isPresent();
            assertThat(response.body()).as(page).doesNotContainPattern("(?i)<script>|\\son[a-z]+=\"|style=\"");
        }
        ConsoleSession plain = client(first, "192.0.2.14");
        assertThat(plain.login("admin", "s3cret").headers().allValues("Set-Cookie"))
                .allSatisfy(cookie -> assertThat(cookie).doesNotContain("Secure"));
    }

    /** A client of {@code app} at {@code address}, as the trusted proxy in front reports it. */
    private static ConsoleSession client(ConfigurableApplicationContext app, String address) {
        return new ConsoleSession(FixtureApplication.port(app), Map.of("X-Forwarded-For", address));
    }
}
