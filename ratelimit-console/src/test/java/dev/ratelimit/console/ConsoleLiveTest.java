package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The overview's live view: the traffic two instances write, the same from either console, the rules
 * that block, the deny list's refusals, and both instances.
 */
class ConsoleLiveTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int REQUESTS = 70;
    /** A complete 10-second bucket, written by both instances at its end: the longest wait for one request. */
    private static final Duration BUCKET_AND_FLUSH = Duration.ofSeconds(25);

    private static ConsoleInstances instances;

    @BeforeAll
    static void start() {
        instances = ConsoleInstances.start("console-live", 2);
    }

    @AfterAll
    static void stop() {
        instances.close();
    }

    @Test
    void bothConsolesShowWhatBothInstancesPassedAndBlockedTheRuleThatBlocksAndBothInstances() {
        HttpProbe[] probes = {instances.probe(0), instances.probe(1)};
        instances.app(0).getBean(SysConfigEditor.class).deny(DenyList.Kind.USER, "live-denied", null, "");
        String denied = "/open/plain?usercode=live-denied";
        AtomicLong refusals = new AtomicLong();
        Awaitility.await("refused by both instances").atMost(Duration.ofSeconds(1)).until(() -> {
            int refusing = 0;
            for (HttpProbe probe : probes) {
                if (probe.status(denied) == 403) {
                    refusals.incrementAndGet();
                    refusing++;
                }
            }
            return refusing == probes.length;
        });
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=live";
        for (int i = 0; i < REQUESTS; i++) {
            probes[i % 2].status(path);
        }
        ConsoleSession one = instances.signedIn(0);
        ConsoleSession other = instances.signedIn(1);

        String rule = "?module=fixture&rule=AlgorithmController.fixedWindow";
        JsonNode ofRule = Awaitility.await("the requests in a complete bucket").atMost(BUCKET_AND_FLUSH)
                .until(() -> live(one, rule), node -> total(node, "blocked") == REQUESTS - AlgorithmController.LIMIT
                        && total(node, "allowed") == AlgorithmController.LIMIT);

        assertThat(live(other, rule).get("total")).isEqualTo(ofRule.get("total"));
        JsonNode ofDenials = Awaitility.await("the refusals in a complete bucket").atMost(BUCKET_AND_FLUSH)
                .until(() -> live(other, "?module=fixture&rule=deny.user"), node -> total(node, "denied") == refusals.get());
        assertThat(total(ofDenials, "blocked") + total(ofDenials, "allowed")).isZero();
        JsonNode view = live(one, "");
        assertThat(live(other, "").get("total")).isEqualTo(view.get("total"));
        JsonNode top = view.get("topRules").get(0);
        assertThat(top.get("rule").asString()).isEqualTo("fixture.AlgorithmController.fixedWindow");
        assertThat(top.get("blocked").asLong()).isEqualTo(REQUESTS - AlgorithmController.LIMIT);
        assertThat(view.get("instances").valueStream().map(instance -> instance.get("port").asInt()))
                .containsExactlyInAnyOrder(instances.port(0), instances.port(1));
        assertThat(view.get("instances").valueStream().map(instance -> instance.get("circuit").asString()))
                .containsOnly("closed");
        assertThat(view.get("instances").valueStream().map(instance -> instance.get("leases").asInt()))
                .as("leases held: no request running").containsOnly(0);
        assertThat(view.get("instances").valueStream().map(instance -> instance.get("permitsHeld").asLong()))
                .as("permits held: a limit of 50 is never batched").containsOnly(0L);
    }

    /** Longer spans read coarser buckets and show the current one as far as it goes. */
    @Test
    void aWeekIsHoursUpToTheCurrentOne() {
        ConsoleSession session = instances.signedIn(0);
        instances.probe(1).status(AlgorithmController.path(Algorithm.TOKEN_BUCKET) + "?usercode=week");

        JsonNode week = Awaitility.await("the current hour counted").atMost(BUCKET_AND_FLUSH)
                .until(() -> live(session, "?module=fixture&rule=AlgorithmController.tokenBucket&span=7d"),
                        view -> view.get("total").get("allowed").get(167).asDouble() > 0);

        assertThat(week.get("span").asString()).isEqualTo("7d");
        assertThat(week.get("stepSeconds").asInt()).isEqualTo(3600);
        assertThat(week.get("times").size()).isEqualTo(168);
        long currentHour = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).toEpochMilli();
        assertThat(week.get("times").get(167).asLong()).isEqualTo(currentHour);
        assertThat(JSON.readTree(session.get(CONSOLE + "/live.json?span=nonsense").body()).get("span").asString())
                .isEqualTo("1h");
    }

    @Test
    void theOverviewHasTheLiveSectionAndItsDataNeedALogin() {
        ConsoleSession session = instances.signedIn(0);
        assertThat(session.get(CONSOLE + "/").body()).contains("id=\"live\"")
                .contains("data-live-url=\"/ratelimit-console/live.json\"");
        HttpResponse<String> anonymous = new ConsoleSession(instances.port(0)).get(CONSOLE + "/live.json");
        assertThat(anonymous.statusCode()).isIn(302, 401, 403);
    }

    private static JsonNode live(ConsoleSession session, String query) {
        HttpResponse<String> response = session.get(CONSOLE + "/live.json" + query);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode view = JSON.readTree(response.body());
        assertThat(view.get("error").isNull()).as("error %s", view.get("error")).isTrue();
        return view;
    }

    /** Requests over the hour: the rates per second times the bucket size. */
    private static long total(JsonNode view, String outcome) {
        double perSecond = view.get("total").get(outcome).valueStream().mapToDouble(JsonNode::asDouble).sum();
        return Math.round(perSecond * view.get("stepSeconds").asInt());
    }
}
