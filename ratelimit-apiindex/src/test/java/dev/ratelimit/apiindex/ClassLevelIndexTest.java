package dev.ratelimit.apiindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The API index says when an endpoint's limits are its controller class's {@code @RateLimit}. */
class ClassLevelIndexTest {

    private static final String INDEX = "ratelimit:{apiindex}:fixture";

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void anEndpointLimitedByItsClassSaysSoAndOneLimitedByItsOwnAnnotationDoesNot() {
        env.start(FixtureApplication.class);
        var redis = env.redis().commands();

        String fromClass = Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> redis.hget(INDEX, "fixture.ClassLimitedController.first"), json -> json != null);
        String own = redis.hget(INDEX, "fixture.ClassLimitedController.own");

        assertThat(fromClass).contains("\"limits\":{\"fixture.ClassLimitedController.first\":{\"count\":3,")
                .endsWith(",\"limitsDeclaredOn\":\"class\"}");
        assertThat(own).contains("\"count\":5").doesNotContain("limitsDeclaredOn");
        assertThat(redis.hget(INDEX, "fixture.ClassLimitedController.exempt")).isNull();
    }
}
