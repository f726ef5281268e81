package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Whose address an IP limit counts, with each way an app can read forwarding headers: the limiter's
 * own trusted proxies, Tomcat's remote IP valve ({@code server.forward-headers-strategy=native}) and
 * Spring's {@code ForwardedHeaderFilter} ({@code framework}). This test's client, 127.0.0.1, plays the
 * proxy.
 */
class ForwardedHeadersTest {

    private static final String IP_COUNTERS = "ratelimit:counter:fixture:LimitedController.ip:IP:*";

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @BeforeEach
    void emptyRedis() {
        env.redis().emptyAll();
    }

    @Test
    void headersFromAPeerOutsideTheTrustedProxiesDoNotChangeTheKey() {
        HttpProbe http = start("ratelimit.trusted-proxies=10.0.0.0/8,fd00::/8");

        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113." + i, "Forwarded", "for=203.0.113." + i))
                    .isEqualTo(200);
        }

        assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113.99")).isEqualTo(429);
        assertThat(env.redis().commands().keys(IP_COUNTERS)).containsExactly(key("127.0.0.1"));
    }

    @Test
    void malformedOrHugeHeadersFromATrustedProxyFallBackToThePeer() {
        HttpProbe http = start("ratelimit.trusted-proxies=127.0.0.1");

        assertThat(http.status("/ip", "X-Forwarded-For", "x".repeat(7_000))).isEqualTo(200);
        assertThat(http.status("/ip", "Forwarded", "for=unknown")).isEqualTo(200);
        assertThat(http.status("/ip", "Forwarded", "for=_hidden;proto=https", "X-Forwarded-For", "203.0.113.5"))
                .isEqualTo(200);
        assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113.5\u00e9")).isEqualTo(429);
        assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113.5".repeat(2_000)))
                .as("past Tomcat's header size limit the container answers 400 itself").isEqualTo(400);
        assertThat(env.redis().commands().keys(IP_COUNTERS)).containsExactly(key("127.0.0.1"));
    }

    /** Tomcat's valve replaces the peer address before the limiter sees it: no limiter setting needed. */
    @Test
    void withTheServersRemoteIpValveTheLimiterCountsTheAddressItResolved() {
        HttpProbe http = start("server.forward-headers-strategy=native");

        assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113.50")).isEqualTo(200);
        assertThat(http.status("/ip", "X-Forwarded-For", "203.0.113.51, 10.0.0.5")).isEqualTo(200);

        assertThat(env.redis().commands().keys(IP_COUNTERS))
                .containsExactlyInAnyOrder(key("203.0.113.50"), key("203.0.113.51"));
    }

    /**
     * Spring's filter takes the leftmost {@code X-Forwarded-For} entry from any peer: whatever a client
     * wrote there, unless the edge proxy replaces the header. The limiter sees only the result.
     */
    @Test
    void withSpringsForwardedHeaderFilterTheLimiterCountsTheLeftmostAddress() {
        HttpProbe http = start("server.forward-headers-strategy=framework");

        assertThat(http.status("/ip", "X-Forwarded-For", "198.51.100.66, 203.0.113.70")).isEqualTo(200);

        assertThat(env.redis().commands().keys(IP_COUNTERS)).containsExactly(key("198.51.100.66"));
    }

    private static HttpProbe start(String... properties) {
        ConfigurableApplicationContext app = env.start(properties);
        return new HttpProbe(FixtureApplication.port(app));
    }

    private static String key(String ip) {
        return "ratelimit:counter:fixture:LimitedController.ip:IP:" + ip;
    }
}
