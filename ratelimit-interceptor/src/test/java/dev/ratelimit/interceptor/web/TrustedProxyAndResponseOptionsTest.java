package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An instance behind a trusted proxy (this test's client, 127.0.0.1), with the legacy 200 contract
 * and no rate limit fields on admitted responses.
 */
class TrustedProxyAndResponseOptionsTest {

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        app = FixtureApplication.start(redis.port(), "ratelimit.trusted-proxies=127.0.0.1/32,::1",
                "ratelimit.response.status=200", "ratelimit.response.headers-on-allowed=false");
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @AfterAll
    static void stop() {
        app.close();
        redis.close();
    }

    @Test
    void forwardedAddressFromATrustedProxyIsTheClient() {
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/ip", "X-Forwarded-For", "203.0.113.7").body()).isEqualTo("ok");
        }
        assertThat(http.get("/ip", "X-Forwarded-For", "203.0.113.7").body()).contains("\"ratelimit\":1");
        assertThat(http.get("/ip", "X-Forwarded-For", "198.51.100.1, 203.0.113.8").body()).isEqualTo("ok");
        assertThat(http.get("/ip", "Forwarded", "for=\"[2001:db8:1:2::5]:4711\"").body()).isEqualTo("ok");

        assertThat(redis.commands().keys("ratelimit:counter:fixture:LimitedController.ip:*")).containsExactlyInAnyOrder(
                "ratelimit:counter:fixture:LimitedController.ip:IP:203.0.113.7",
                "ratelimit:counter:fixture:LimitedController.ip:IP:203.0.113.8",
                "ratelimit:counter:fixture:LimitedController.ip:IP:2001:db8:1:2:0:0:0:0/64");
    }

    @Test
    void legacyContractAnswers200WithTheSameBody() {
        assertThat(http.status("/stacked?usercode=nina")).isEqualTo(200);
        HttpResponse<String> admitted = http.get("/stacked?usercode=nina");
        assertThat(admitted.headers().firstValue("RateLimit")).isEmpty();

        HttpResponse<String> rejected = http.get("/stacked?usercode=nina");
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
        assertThat(rejected.body()).startsWith("{\"error\":\"Too many requests.").contains("\"successful\":0");
    }
}
