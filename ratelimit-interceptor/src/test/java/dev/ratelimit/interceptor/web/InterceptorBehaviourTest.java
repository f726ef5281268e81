package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureWithRedis;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The request path of one instance against a real Redis, through real HTTP. */
class InterceptorBehaviourTest {

    private static final String SYSCONFIG = "ratelimit:sysconfig";

    @RegisterExtension
    static final FixtureWithRedis fixture = FixtureWithRedis.with();

    private final RedisServerProcess redis = fixture.redis();
    private final HttpProbe http = fixture.http();

    @BeforeEach
    void emptyRedis() {
        redis.emptyAll();
        refreshSnapshot();
    }

    @Test
    void rejectsTheRequestAfterTheLimitWith429HeadersAndJson() {
        String policies = "\"LimitedController.stacked#user\";q=2;w=60, \"LimitedController.stacked#ip\";q=100;w=60";
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> allowed = http.get("/stacked?usercode=alice");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.headers().firstValue("RateLimit-Policy")).hasValue(policies);
            assertThat(allowed.headers().firstValue("RateLimit"))
                    .hasValue("\"LimitedController.stacked#user\";r=" + (1 - i) + ";t=60");
        }
        HttpResponse<String> rejected = http.get("/stacked?usercode=alice", "Accept-Language", "en");

        assertThat(rejected.statusCode()).isEqualTo(429);
        long retryAfter = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(59L, 60L);
        assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(rejected.headers().firstValue("RateLimit-Policy")).hasValue(policies);
        assertThat(rejected.headers().firstValue("RateLimit"))
                .hasValue("\"LimitedController.stacked#user\";r=0;t=" + retryAfter);
        assertThat(rejected.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(rejected.body()).isEqualTo("{\"error\":\"Too many requests. Please try again in " + retryAfter
                + " second(s).\",\"successful\":0,\"ratelimit\":1,\"retryAfter\":" + retryAfter + "}");
    }

    /** As documented: stacked limits are counted together, so a denied request used up the others' quota too. */
    @Test
    void aDeniedRequestStillCountsAgainstTheLimitsThatAdmittedIt() {
        for (int i = 0; i < 5; i++) {
            http.get("/stacked?usercode=greedy");
        }
        String ipCounter = "ratelimit:counter:fixture:LimitedController.stacked#ip:IP:127.0.0.1";
        assertThat(redis.commands().hget(ipCounter, "count")).isEqualTo("5");

        HttpResponse<String> neighbour = http.get("/stacked?usercode=neighbour");
        assertThat(neighbour.statusCode()).isEqualTo(200);
        assertThat(redis.commands().hget(ipCounter, "count")).isEqualTo("6");
    }

    /** A token bucket's {@code t} is when the next request is earned, not a whole window; a request sent then gets in. */
    @Test
    void aRequestSentWhenRetryAfterSaysIsAdmitted() {
        assertThat(http.status("/bucket?usercode=patient")).isEqualTo(200);
        HttpResponse<String> last = http.get("/bucket?usercode=patient");
        assertThat(last.statusCode()).isEqualTo(200);
        assertThat(last.headers().firstValue("RateLimit")).hasValue("\"LimitedController.bucket\";r=0;t=1");
        HttpResponse<String> rejected = http.get("/bucket?usercode=patient");
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(rejected.headers().firstValue("RateLimit")).hasValue("\"LimitedController.bucket\";r=0;t=1");

        long due = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                .until(() -> System.nanoTime() - due >= 0);
        assertThat(http.status("/bucket?usercode=patient")).isEqualTo(200);
        assertThat(http.status("/bucket?usercode=patient")).isEqualTo(429);
    }

    @Test
    void localizesTheRejectionText() {
        http.get("/short?usercode=bob");
        http.get("/short?usercode=bob");

        assertThat(http.get("/short?usercode=bob", "Accept-Language", "ja").body())
                .contains("リクエストが多すぎます。1 秒後にもう一度お試しください。");
        assertThat(http.get("/short?usercode=bob", "Accept-Language", "zh-CN").body()).contains("请求过于频繁");
        assertThat(http.get("/short?usercode=bob", "Accept-Language", "zh-TW").body()).contains("請求過於頻繁");
    }

    @Test
    void windowExpiryAdmitsAgain() {
        assertThat(http.status("/short?usercode=carol")).isEqualTo(200);
        assertThat(http.status("/short?usercode=carol")).isEqualTo(200);
        assertThat(http.status("/short?usercode=carol")).isEqualTo(429);

        Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> http.status("/short?usercode=carol") == 200);
    }

    @Test
    void anOrphanCounterWithoutTtlHealsOnTheNextRequest() {
        String key = "ratelimit:counter:fixture:LimitedController.shortWindow:USER:dave";
        redis.commands().hset(key, "count", "100");
        assertThat(redis.commands().ttl(key)).isEqualTo(-1L);

        assertThat(http.status("/short?usercode=dave")).isEqualTo(429);
        assertThat(redis.commands().pttl(key)).isBetween(1L, 1000L);
        Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> http.status("/short?usercode=dave") == 200);
    }

    @Test
    void everyCounterKeyCarriesATtl() {
        http.get("/user?usercode=erin");
        http.get("/ip");
        http.get("/method");
        http.get("/global/a");

        assertThat(redis.commands().keys("ratelimit:counter:*")).hasSize(4)
                .allSatisfy(key -> assertThat(redis.commands().ttl(key)).isPositive());
    }

    @Test
    void withoutIdentityAUserLimitDoesNotApply() {
        IntStream.range(0, 5).forEach(i -> assertThat(http.status("/short")).isEqualTo(200));
        assertThat(redis.commands().keys("ratelimit:counter:*")).isEmpty();
    }

    @Test
    void ipLimitIgnoresForwardedHeadersFromAnUntrustedPeer() {
        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/ip", "X-Forwarded-For", "10.0.0." + i, "Forwarded", "for=10.1.1." + i))
                    .isEqualTo(200);
        }
        assertThat(http.status("/ip", "X-Forwarded-For", "10.0.0.99")).isEqualTo(429);
        assertThat(redis.commands().keys("ratelimit:counter:*"))
                .containsExactly("ratelimit:counter:fixture:LimitedController.ip:IP:127.0.0.1");
    }

    @Test
    void methodLimitCountsEveryoneTogether() {
        for (int i = 0; i < 5; i++) {
            assertThat(http.status("/method?usercode=u" + i)).isEqualTo(200);
        }
        assertThat(http.status("/method?usercode=someone-else")).isEqualTo(429);
    }

    @Test
    void globalLimitIsSharedByEveryGlobalEndpointOfTheModule() {
        assertThat(http.status("/global/a")).isEqualTo(200);
        assertThat(http.status("/global/b")).isEqualTo(200);
        assertThat(http.status("/global/a")).isEqualTo(200);
        assertThat(http.status("/global/b")).isEqualTo(200);
        assertThat(http.status("/global/a")).isEqualTo(429);
        assertThat(http.status("/global/b")).isEqualTo(429);
    }

    @Test
    void masterSwitchOffStopsAllLimiting() {
        redis.commands().hset(SYSCONFIG, "global.check", "0");
        refreshSnapshot();

        IntStream.range(0, 5).forEach(i -> assertThat(http.status("/short?usercode=frank")).isEqualTo(200));
        assertThat(redis.commands().keys("ratelimit:counter:*")).isEmpty();
    }

    @Test
    void ruleSwitchOffStopsThatRuleOnly() {
        redis.commands().hset(SYSCONFIG, "fixture.LimitedController.shortWindow.check", "0");
        refreshSnapshot();

        IntStream.range(0, 5).forEach(i -> assertThat(http.status("/short?usercode=grace")).isEqualTo(200));
        http.get("/method");
        assertThat(redis.commands().keys("ratelimit:counter:*"))
                .containsExactly("ratelimit:counter:fixture:LimitedController.method:METHOD:all");
    }

    @Test
    void countAndIntervalOverridesReplaceTheAnnotation() {
        assertThat(http.get("/short?usercode=ivan").headers().firstValue("RateLimit-Policy"))
                .as("as declared, before the override").hasValue("\"LimitedController.shortWindow\";q=2;w=1");
        redis.commands().hset(SYSCONFIG, "fixture.LimitedController.shortWindow.count", "4");
        redis.commands().hset(SYSCONFIG, "fixture.LimitedController.shortWindow.interval", "120");
        refreshSnapshot();

        IntStream.range(0, 4).forEach(i -> assertThat(http.status("/short?usercode=heidi")).isEqualTo(200));
        HttpResponse<String> rejected = http.get("/short?usercode=heidi");
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.headers().firstValue("RateLimit-Policy")).hasValue("\"LimitedController.shortWindow\";q=4;w=120");
    }

    @Test
    void garbageConfigValuesAreIgnored() {
        redis.commands().hset(SYSCONFIG, "fixture.LimitedController.shortWindow.count", "lots");
        redis.commands().hset(SYSCONFIG, "global.check", "maybe");
        redis.commands().hset(SYSCONFIG, "dyn.fixture.OpenController.plain", "1/0");
        refreshSnapshot();

        assertThat(http.status("/short?usercode=ivan")).isEqualTo(200);
        assertThat(http.status("/short?usercode=ivan")).isEqualTo(200);
        assertThat(http.status("/short?usercode=ivan")).isEqualTo(429);
        assertThat(http.status("/open/plain?usercode=ivan")).isEqualTo(200);
        assertThat(http.status("/open/plain?usercode=ivan")).isEqualTo(200);
    }

    @Test
    void dynamicRuleLimitsAnUnannotatedHandlerAfterARefresh() {
        assertThat(http.status("/open/plain?usercode=judy")).isEqualTo(200);
        assertThat(http.status("/open/plain?usercode=judy")).isEqualTo(200);

        redis.commands().hset(SYSCONFIG, "dyn.fixture.OpenController.plain", "2/60");
        refreshSnapshot();

        assertThat(http.status("/open/plain?usercode=judy")).isEqualTo(200);
        assertThat(http.status("/open/plain?usercode=judy")).isEqualTo(200);
        assertThat(http.status("/open/plain?usercode=judy")).isEqualTo(429);
        assertThat(http.status("/open/special?usercode=judy")).isEqualTo(200);
    }

    /** Once a dynamic rule counted per user only, so anonymous traffic was never limited by one. */
    @Test
    void aDynamicRuleCountsByTheDimensionAndAlgorithmItNames() {
        redis.commands().hset(SYSCONFIG, "dyn.fixture.OpenController.plain", "2/60 ip");
        redis.commands().hset(SYSCONFIG, "dynuri./open/special", "1/60 method token_bucket");
        refreshSnapshot();

        assertThat(IntStream.range(0, 3).map(i -> http.status("/open/plain"))).as("anonymous, per address")
                .containsExactly(200, 200, 429);
        assertThat(http.status("/open/special?usercode=a")).isEqualTo(200);
        assertThat(http.status("/open/special?usercode=b")).as("the endpoint as a whole").isEqualTo(429);
        assertThat(redis.commands().keys("ratelimit:counter:fixture:/open/special:*"))
                .containsExactly("ratelimit:counter:fixture:/open/special:METHOD@TOKEN_BUCKET:all");
    }

    @Test
    void theMostSpecificUriPatternWins() {
        redis.commands().hset(SYSCONFIG, "dynuri./open/**", "3/60");
        redis.commands().hset(SYSCONFIG, "dynuri./open/special", "1/60");
        redis.commands().hset(SYSCONFIG, "dynuri./**", "100/60");
        refreshSnapshot();

        assertThat(http.status("/open/special?usercode=kim")).isEqualTo(200);
        assertThat(http.status("/open/special?usercode=kim")).isEqualTo(429);
        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/open/plain?usercode=kim")).isEqualTo(200));
        assertThat(http.status("/open/plain?usercode=kim")).isEqualTo(429);
    }

    /** Only the app's start-up work writes the hash: its declarations, which come back after the emptying. */
    @Test
    void noRequestWritesToTheConfigHash() {
        Awaitility.await("the declarations merged again").atMost(Duration.ofSeconds(10)).until(() ->
                redis.commands().hexists(SYSCONFIG, "declared.fixture.LimitedController.user.count"));
        Map<String, String> before = redis.commands().hgetall(SYSCONFIG);

        http.get("/open/plain?usercode=leo");
        http.get("/short?usercode=leo");
        http.get("/nowhere?usercode=leo");

        assertThat(redis.commands().hgetall(SYSCONFIG)).isEqualTo(before);
    }

    private static void refreshSnapshot() {
        assertThat(fixture.app().getBean(RuleSnapshotHolder.class).refresh()).isTrue();
    }
}
