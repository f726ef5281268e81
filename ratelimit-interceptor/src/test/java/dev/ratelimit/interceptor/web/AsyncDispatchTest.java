package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.LoginController;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A handler that answers asynchronously makes Spring MVC dispatch its request twice, the interceptors
 * running on both: the request is decided and counted on the first dispatch only, and its
 * {@code countWhen} read on the response the second one writes.
 */
class AsyncDispatchTest {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @Test
    void anAsynchronousRequestIsCountedOnceAndItsResponseDecidesTheRefund() {
        HttpProbe http = new HttpProbe(FixtureApplication.port(env.start()));
        String login = "/login/async?usercode=carl";

        assertThat(IntStream.range(0, 10).map(i -> http.post(login + "&ok=true").statusCode()))
                .as("successes give their units back").containsOnly(200);
        assertThat(IntStream.range(0, LoginController.FAILURES + 1).map(i -> http.post(login + "&ok=false").statusCode()))
                .as("each failure counted once").containsExactly(401, 401, 401, 401, 401, 429);
        assertThat(env.redis().commands().hget("ratelimit:counter:fixture:LoginController.async:USER:carl", "count"))
                .as("one count per failure and for the denied attempt").isEqualTo("6");
    }
}
