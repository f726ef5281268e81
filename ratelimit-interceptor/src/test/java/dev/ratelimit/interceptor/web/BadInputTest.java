package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureWithRedis;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Input nobody should send, through real HTTP: each gets a defined answer, never a 500, and never a
 * key that is long, odd or unbounded in number.
 */
@ExtendWith(OutputCaptureExtension.class)
class BadInputTest {

    private static final String USER_COUNTERS = "ratelimit:counter:fixture:LimitedController.stacked#user:USER:*";
    /** A key part that is not plain ASCII of at most 64 characters is {@code ~} and a base64url SHA-256. */
    private static final String HASHED = "ratelimit:counter:fixture:LimitedController.stacked#user:USER:~[A-Za-z0-9_-]{43}";

    @RegisterExtension
    static final FixtureWithRedis fixture = FixtureWithRedis.with();

    private final RedisServerProcess redis = fixture.redis();
    private final HttpProbe http = fixture.http();

    @BeforeEach
    void emptyRedis() {
        fixture.emptyRedis();
    }

    @Test
    void absurdlyLongUserCodesAreCountedUnderAShortHash() {
        String huge = "a".repeat(7_000);

        assertThat(IntStream.range(0, 3).map(i -> http.status("/stacked?usercode=" + huge)))
                .containsExactly(200, 200, 429);
        assertThat(redis.commands().keys(USER_COUNTERS)).singleElement().asString().matches(HASHED);
    }

    @Test
    void controlCharactersAndUnicodeAreHashedAndNothingIsEchoed() {
        for (String user : List.of("%00%0D%0ASet-Cookie:%20evil=1", "%E7%94%A8%E6%88%B7%F0%9F%98%80", "tab%09user",
                "%22%3Cscript%3E")) {
            HttpResponse<String> first = http.get("/stacked?usercode=" + user);
            http.get("/stacked?usercode=" + user);
            HttpResponse<String> third = http.get("/stacked?usercode=" + user);
            assertThat(first.statusCode()).as(user).isEqualTo(200);
            assertThat(third.statusCode()).as("the same odd code is the same identity: " + user).isEqualTo(429);
            assertThat(third.headers().firstValue("Set-Cookie")).isEmpty();
            assertThat(third.body()).doesNotContain("<script>", "evil");
        }
        // Printable ASCII is kept as it is: it cannot make a key odd.
        assertThat(redis.commands().keys(USER_COUNTERS)).hasSize(4).filteredOn(key -> !key.matches(HASHED))
                .containsExactly("ratelimit:counter:fixture:LimitedController.stacked#user:USER:\"<script>");
    }

    /** Tomcat refuses to decode it when the limiter reads {@code usercode}, and answers 400 itself. */
    @Test
    void aQueryThatIsNotUtf8IsABadRequest() {
        assertThat(http.status("/stacked?usercode=%FF%FE%FD")).isEqualTo(400);
        assertThat(redis.commands().keys("ratelimit:counter:*")).isEmpty();
    }

    /**
     * A flood of them costs one warning, not a stack trace per request (1,000 of those wrote 6.8 MB of
     * log), and each is answered 400 as the container answers it, never let through uncounted.
     */
    @Test
    void aThousandQueriesThatDoNotDecodeAreAnsweredWithoutFloodingTheLog(CapturedOutput output) {
        for (int i = 0; i < 1_000; i++) {
            assertThat(http.status(i % 2 == 0 ? "/user?usercode=%ff%fe" : "/user?usercode=%C3%28")).isEqualTo(400);
        }

        assertThat(output.toString().lines().filter(line -> line.contains("cannot read"))).hasSizeLessThanOrEqualTo(1);
        assertThat(output.toString().lines().filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")))
                .as("warnings and errors for 1,000 requests").hasSizeLessThanOrEqualTo(1);
        assertThat(output).doesNotContain("Servlet.service()");
        assertThat(redis.commands().keys("ratelimit:counter:*")).isEmpty();
    }

    /** An expression that reads such a parameter fails; its limit must not be skipped for it. */
    @Test
    void aCustomKeyThatCannotBeReadIsABadRequestNotASkippedLimit() {
        assertThat(IntStream.range(0, 5).map(i -> http.status("/query?q=%ff"))).containsOnly(400);
        assertThat(IntStream.range(0, 3).map(i -> http.status("/query?q=ok"))).containsExactly(200, 200, 429);
    }

    /**
     * Redis Cluster hashes only what is between the first braces of a key: a client that could put them
     * in its identity would choose the node of its counters, and pile every one of them on one node.
     */
    @Test
    void anIdentityWithBracesIsHashedSoThatNoClientPicksItsSlot() {
        assertThat(IntStream.range(0, 3).map(i -> http.status("/stacked?usercode=%7Bx%7D1"))).containsExactly(200, 200, 429);

        assertThat(redis.commands().keys(USER_COUNTERS)).singleElement().asString().matches(HASHED);
    }

    @Test
    void anEmptyOrBlankUserCodeIsNoUser() {
        for (String user : List.of("", "%20%20%20", "%09")) {
            assertThat(IntStream.range(0, 4).map(i -> http.status("/stacked?usercode=" + user))).containsOnly(200);
        }
        assertThat(redis.commands().keys(USER_COUNTERS)).isEmpty();
    }

    @Test
    void aFloodOfDistinctIdentitiesLeavesOnlyKeysThatExpire() throws Exception {
        AtomicInteger sequence = new AtomicInteger();
        ConcurrentClients.admitted(8, 250, thread -> http.status("/user?usercode=flood-" + sequence.incrementAndGet()) == 200);

        RedisCommands<String, String> commands = redis.commands();
        List<String> keys = commands.keys("ratelimit:counter:*");
        assertThat(keys).hasSize(2_000);
        assertThat(keys).allSatisfy(key -> assertThat(commands.pttl(key)).isBetween(1L, 60_000L));
    }

    @Test
    void configValuesThatDoNotParseAreIgnoredWithAWarningAndTheRestApplies(CapturedOutput output) {
        redis.commands().hset("ratelimit:sysconfig", Map.of(
                "global.mode", "maybe",
                "fixture.LimitedController.stacked#user.mode", "quietly",
                "fixture.LimitedController.stacked#user.count", "\u0000",
                "dynuri./open/{id:[}", "1/60",
                "dynuri./open/spe{cial", "1/60",
                "dynuri./open/plain", "1/60"));
        fixture.app().getBean(RuleSnapshotHolder.class).refresh();

        assertThat(IntStream.range(0, 3).map(i -> http.status("/stacked?usercode=cfg")))
                .as("declared count, enforced").containsExactly(200, 200, 429);
        assertThat(IntStream.range(0, 3).map(i -> http.status("/open/special?usercode=cfg"))).containsOnly(200);
        assertThat(IntStream.range(0, 2).map(i -> http.status("/open/plain?usercode=cfg"))).containsExactly(200, 429);
        assertThat(output)
                .contains("ignoring config field 'global.mode' = 'maybe': a mode is 'enforce' or 'shadow'")
                .contains("ignoring config field 'fixture.LimitedController.stacked#user.m...' = 'quietly'")
                .contains("ignoring config field 'fixture.LimitedController.stacked#user.c...' = '?': expected a whole")
                .contains("ignoring config field 'dynuri./open/{id:[}' = '1/60': URL pattern does not compile: "
                        + "Unclosed character class near index 2\n")
                .contains("ignoring config field 'dynuri./open/spe{cial' = '1/60': unbalanced '{' '}' in URL pattern");
    }
}
