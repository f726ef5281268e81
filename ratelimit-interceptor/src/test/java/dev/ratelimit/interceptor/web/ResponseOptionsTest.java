package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureWithRedis;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The response switches: an RFC 9457 problem body, legacy X-RateLimit-* fields, no fields on admitted responses,
 * and the status of a client the deny list refuses.
 */
class ResponseOptionsTest {

    @RegisterExtension
    static final FixtureWithRedis fixture = FixtureWithRedis.with("ratelimit.response.body=problem",
                "ratelimit.response.legacy-headers=true", "ratelimit.response.headers-on-allowed=false",
                "ratelimit.deny-list.status=451");

    private final HttpProbe http = fixture.http();

    @Test
    void admittedResponsesCarryNoRateLimitFieldsWhenSwitchedOff() {
        HttpResponse<String> allowed = http.get("/method");

        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.headers().map()).doesNotContainKeys("ratelimit", "ratelimit-policy", "x-ratelimit-limit");
    }

    @Test
    void aDeniedClientGetsTheConfiguredStatusAsAProblemDocumentInItsLanguageWithTheEnd() {
        Instant until = Instant.now().plusSeconds(600);
        fixture.app().getBean(SysConfigEditor.class).deny(DenyList.Kind.USER, "problem-user", until, "test");
        Awaitility.await("denied").atMost(Duration.ofSeconds(1))
                .until(() -> http.status("/method?usercode=problem-user") == 451);

        HttpResponse<String> denied = http.get("/method?usercode=problem-user", "Accept-Language", "ja");

        assertThat(denied.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        long retryAfter = Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(590L, 600L);
        assertThat(denied.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Unavailable For Legal Reasons\","
                + "\"status\":451,\"detail\":\"アクセスが拒否されました。\",\"instance\":\"/method\",\"denied\":true,"
                + "\"retryAfter\":" + retryAfter + "}");
        assertThat(denied.headers().map()).doesNotContainKeys("ratelimit", "ratelimit-policy", "x-ratelimit-limit");
    }

    @Test
    void aRejectionIsAProblemDocumentWithLegacyFieldsToo() {
        http.get("/user?usercode=problem");
        for (int i = 0; i < 50; i++) {
            http.get("/user?usercode=problem");
        }
        HttpResponse<String> rejected = http.get("/user?usercode=problem", "Accept-Language", "en");

        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        String retryAfter = rejected.headers().firstValue("Retry-After").orElseThrow();
        assertThat(rejected.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,"
                + "\"detail\":\"Too many requests. Please try again in " + retryAfter + " second(s).\","
                + "\"instance\":\"/user\",\"retryAfter\":" + retryAfter + ",\"policy\":\"LimitedController.user\"}");
        assertThat(rejected.headers().firstValue("X-RateLimit-Limit")).hasValue("50");
        assertThat(rejected.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(rejected.headers().firstValue("X-RateLimit-Reset")).hasValue(retryAfter);
        assertThat(rejected.headers().firstValue("RateLimit")).hasValue("\"LimitedController.user\";r=0;t=" + retryAfter);
    }
}
