package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.widescan.WideScanApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** An app replaces parts of the limiter with its own beans, and may component-scan the limiter's packages. */
class CustomisationTest {

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
    void aRejectionHandlerBeanReplacesTheResponse() {
        try (ConfigurableApplicationContext app = FixtureApplication.start(redis.port(), "fixture.teapot=true")) {
            HttpProbe http = new HttpProbe(FixtureApplication.port(app));
            http.get("/stacked?usercode=paul");
            http.get("/stacked?usercode=paul");

            HttpResponse<String> rejected = http.get("/stacked?usercode=paul");

            assertThat(rejected.statusCode()).isEqualTo(418);
            assertThat(rejected.body()).matches("teapot:LimitedController.stacked#user:(59|60)");
            assertThat(rejected.headers().firstValue("Retry-After")).isEmpty();
            assertThat(http.get("/stacked?usercode=paul", "Accept", RefusalPagesTest.BROWSER).body())
                    .as("a browser too gets the app's answer, not a page").startsWith("teapot:");
        }
    }

    @Test
    void anAppScanningTheLimiterPackagesStillHasOneInterceptor() {
        try (ConfigurableApplicationContext app = FixtureApplication.start(WideScanApplication.class, redis.port())) {
            HttpProbe http = new HttpProbe(FixtureApplication.port(app));
            assertThat(app.getBeansOfType(RateLimitInterceptor.class)).hasSize(1);
            assertThat(http.status("/stacked?usercode=quinn")).isEqualTo(200);
            assertThat(http.status("/stacked?usercode=quinn")).isEqualTo(200);
            assertThat(http.status("/stacked?usercode=quinn")).isEqualTo(429);
        }
    }
}
