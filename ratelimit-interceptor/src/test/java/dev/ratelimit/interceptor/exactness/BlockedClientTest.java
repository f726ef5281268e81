package dev.ratelimit.interceptor.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.Statuses;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client Redis has blocked costs Redis nothing more: each instance remembers the denial until it
 * ends and refuses the client itself, with the same response. What can free the client frees it on
 * every instance at once.
 */
class BlockedClientTest {

    private static final RuleId RULE = RuleId.of("fixture", "LimitedController.user");
    private static final int LIMIT = 50;

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void twoHundredRequestsOfABlockedClientMakeAHandfulOfScriptCalls() {
        List<HttpProbe> instances = startTwo();
        assertThat(admitted(instances, "/user?usercode=blocked", LIMIT + 2)).isEqualTo(LIMIT);
        long before = attemptsOnRedis("blocked");

        assertThat(admitted(instances, "/user?usercode=blocked", 200)).isZero();

        long scriptCalls = attemptsOnRedis("blocked") - before;
        System.out.printf("FIGURES blocked client: 200 requests over two instances made %d script calls%n", scriptCalls);
        assertThat(scriptCalls).isLessThanOrEqualTo(4);
    }

    @Test
    void aRefusalFromTheNearCacheIsTheSameResponseCountingDown() {
        HttpProbe http = startTwo().get(0);
        HttpResponse<String> fromRedis = IntStream.range(0, LIMIT + 1).mapToObj(i -> http.get("/user?usercode=same"))
                .reduce((first, second) -> second).orElseThrow();
        long redisWait = retryAfter(fromRedis);
        long scriptCalls = attemptsOnRedis("same");

        HttpResponse<String> remembered = Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> http.get("/user?usercode=same"), response -> retryAfter(response) < redisWait);

        assertThat(attemptsOnRedis("same")).as("answered without Redis").isEqualTo(scriptCalls);
        assertThat(remembered.statusCode()).isEqualTo(fromRedis.statusCode()).isEqualTo(429);
        long rememberedWait = retryAfter(remembered);
        assertThat(rememberedWait).isEqualTo(redisWait - 1);
        assertThat(remembered.headers().firstValue("RateLimit").orElseThrow())
                .isEqualTo("\"LimitedController.user\";r=0;t=" + rememberedWait);
        assertThat(remembered.headers().firstValue("RateLimit-Policy"))
                .isEqualTo(fromRedis.headers().firstValue("RateLimit-Policy"));
        assertThat(remembered.body()).isEqualTo(fromRedis.body().replace("\"retryAfter\":" + redisWait,
                "\"retryAfter\":" + rememberedWait).replace(" " + redisWait + " second", " " + rememberedWait + " second"));
    }

    @Test
    void raisingTheCountFreesTheClientOnBothInstancesWithinASecond() {
        List<HttpProbe> instances = startTwo();
        assertThat(admitted(instances, "/user?usercode=raised", LIMIT + 10)).isEqualTo(LIMIT);

        editor().setRuleCount(RULE, Integer.toString(LIMIT + 10));

        for (HttpProbe instance : instances) {
            Awaitility.await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20))
                    .until(() -> instance.status("/user?usercode=raised") == 200);
        }
    }

    @Test
    void resettingTheCounterFreesTheClientOnBothInstancesAtOnce() {
        List<HttpProbe> instances = startTwo();
        assertThat(admitted(instances, "/user?usercode=reset", LIMIT + 10)).isEqualTo(LIMIT);

        assertThat(editor().resetCounter("ratelimit:counter:fixture:LimitedController.user:USER:reset")).isTrue();

        for (HttpProbe instance : instances) {
            Awaitility.await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20))
                    .until(() -> instance.status("/user?usercode=reset") == 200);
        }
        assertThat(admitted(instances, "/user?usercode=reset", LIMIT)).isEqualTo(LIMIT - 2);
    }

    /** A test about the setting: without the near cache every request asks Redis. */
    @Test
    void withTheNearCacheOffEveryRequestAsksRedis() {
        HttpProbe http = new HttpProbe(FixtureApplication.port(env.start("ratelimit.near-cache.enabled=false")));
        assertThat(admitted(List.of(http), "/user?usercode=uncached", LIMIT)).isEqualTo(LIMIT);
        long before = attemptsOnRedis("uncached");

        assertThat(admitted(List.of(http), "/user?usercode=uncached", 20)).isZero();

        assertThat(attemptsOnRedis("uncached") - before).isEqualTo(20);
    }

    /**
     * The user's requests that reached Redis: the fixed window counts every call of its script, denied
     * ones too. Redis' EVALSHA count would also hold the scripts of the background writers (the list
     * of blocked clients), which run at moments of their own.
     */
    private long attemptsOnRedis(String user) {
        String count = env.redis().commands().hget("ratelimit:counter:fixture:LimitedController.user:USER:" + user, "count");
        return count == null ? 0 : Long.parseLong(count);
    }

    private static long retryAfter(HttpResponse<String> response) {
        return Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
    }

    private List<HttpProbe> startTwo() {
        ConfigurableApplicationContext first = env.start();
        ConfigurableApplicationContext second = env.start();
        // Both listen for config changes before a test changes anything.
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> env.redis().commands().pubsubNumsub("ratelimit:config-changed").get("ratelimit:config-changed") == 2);
        return List.of(new HttpProbe(FixtureApplication.port(first)), new HttpProbe(FixtureApplication.port(second)));
    }

    private SysConfigEditor editor() {
        return env.apps().get(0).getBean(SysConfigEditor.class);
    }

    private static long admitted(List<HttpProbe> instances, String path, int requests) {
        return IntStream.range(0, requests)
                .filter(i -> Statuses.admitted(instances.get(i % instances.size()).status(path))).count();
    }
}
