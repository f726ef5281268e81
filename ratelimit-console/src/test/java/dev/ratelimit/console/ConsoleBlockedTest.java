package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The blocked clients page: a client refused by two instances, listed once, and Unblock, audited. */
class ConsoleBlockedTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String MEMBER = "AlgorithmController.fixedWindow:USER:";
    /** Two write intervals of the instances (the shipped 5 s) and a margin. */
    private static final Duration LISTED = Duration.ofSeconds(15);
    private static final Duration UNBLOCKED_EVERYWHERE = Duration.ofSeconds(1);

    private static ConsoleInstances instances;

    @BeforeAll
    static void start() {
        instances = ConsoleInstances.start("console-blocked", 2);
    }

    @AfterAll
    static void stop() {
        instances.close();
    }

    @Test
    void aClientRefusedByTwoInstancesIsListedOnceAndUnblockFreesItEverywhereAndIsAudited() {
        HttpProbe[] probes = {instances.probe(0), instances.probe(1)};
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=mallory";
        for (int i = 0; i < AlgorithmController.LIMIT + 4; i++) {
            probes[i % 2].status(path);
        }
        ConsoleSession console = instances.signedIn(0);

        String page = Awaitility.await("mallory listed").atMost(LISTED)
                .until(() -> console.get(CONSOLE + "/blocked").body(), body -> body.contains("mallory"));

        assertThat(page).contains("fixture.AlgorithmController.fixedWindow");
        assertThat(occurrences(page, "name=\"member\"")).isEqualTo(1);
        assertThat(probes[0].status(path)).isEqualTo(429);

        HttpResponse<String> unblocked = console.post(CONSOLE + "/blocked/unblock", "module", "fixture",
                "member", MEMBER + "mallory");

        assertThat(unblocked.statusCode()).isEqualTo(302);
        assertThat(console.follow(unblocked).body()).contains("Unblocked: " + MEMBER + "mallory")
                .contains("No client is blocked now.");
        for (HttpProbe instance : probes) {
            Awaitility.await("admitted again").atMost(UNBLOCKED_EVERYWHERE).until(() -> instance.status(path) == 200);
        }
        assertThat(console.get(CONSOLE + "/audit").body()).contains("unblock fixture " + MEMBER + "mallory")
                .contains("unblocked");
        assertThat(console.get(CONSOLE + "/rule?module=fixture&rule=AlgorithmController.fixedWindow").body())
                .as("in the rule's history").contains("unblock fixture " + MEMBER + "mallory");
    }

    @Test
    void aCraftedMemberIsRefusedAndAnAnonymousPostNeverUnblocks() {
        ConsoleSession console = instances.signedIn(1);
        console.get(CONSOLE + "/blocked");

        HttpResponse<String> crafted = console.post(CONSOLE + "/blocked/unblock", "module", "fixture", "member", "nocolon");

        assertThat(console.follow(crafted).body()).contains("That is not a blocked client.");
        assertThat(console.get(CONSOLE + "/audit").body()).doesNotContain("nocolon");
        HttpResponse<String> anonymous = new ConsoleSession(instances.port(1))
                .post(CONSOLE + "/blocked/unblock", "module", "fixture", "member", MEMBER + "x");
        assertThat(anonymous.statusCode()).isIn(302, 401, 403);
        assertThat(anonymous.headers().firstValue("Location").orElse("")).doesNotContain("unblocked");
    }

    @Test
    void thePageInJapanese() {
        ConsoleSession console = instances.signedIn(0);
        assertThat(console.get(CONSOLE + "/blocked?lang=ja").body()).contains("遮断中のクライアント");
    }

    private static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
