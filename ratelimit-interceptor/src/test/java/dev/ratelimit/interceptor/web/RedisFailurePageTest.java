package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.pages.PagesApplication;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The refusal a person reads when the failure policy decides, not a limit: with Redis away and the policy
 * closed, the 503 page of the app with pages and languages of its own ({@link PagesApplication}). The
 * limits' own refusals are {@link RefusalPagesTest}'s.
 */
class RedisFailurePageTest {

    /** {@code ratelimit.redis-failure.mode=closed} while Redis is away: the 503 a browser reads says so, in its language. */
    @Test
    void whileRedisIsAwayInClosedModeABrowserReadsThatTheServiceIsUnavailable() {
        try (RedisServerProcess ownRedis = RedisServerProcess.start();
             ConfigurableApplicationContext shop = PagesApplication.start(ownRedis.port(), "ratelimit.redis-failure.mode=closed")) {
            HttpProbe http = new HttpProbe(FixtureApplication.port(shop));
            ownRedis.stop();
            CircuitBreaker circuit = shop.getBean(CircuitBreaker.class);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                http.get("/basket?usercode=" + RefusalPagesTest.user());
                return !circuit.isClosed();
            });

            HttpResponse<String> page = http.get("/basket?lang=de&usercode=" + RefusalPagesTest.user(), "Accept", RefusalPagesTest.BROWSER);
            HttpResponse<String> body = http.get("/basket?lang=de&usercode=" + RefusalPagesTest.user());

            assertThat(page.statusCode()).isEqualTo(body.statusCode()).isEqualTo(503);
            assertThat(page.headers().firstValue("Retry-After")).isPresent();
            assertThat(page.body()).contains("<h1>Dienst vorübergehend nicht verfügbar</h1>",
                    "<p>Der Dienst ist vorübergehend nicht verfügbar.");
            assertThat(body.body()).contains("\"ratelimit\":0");
            assertThat(RefusalPagesTest.message(body)).startsWith("Der Dienst ist vorübergehend nicht verfügbar.");
        }
    }
}
