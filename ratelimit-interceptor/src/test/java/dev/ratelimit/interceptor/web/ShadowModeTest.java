package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureWithRedis;
import dev.ratelimit.interceptor.fixture.RecordingInterceptionLog;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shadow mode: a rule (or every rule) counts and logs what it would deny, and lets it pass. */
class ShadowModeTest {

    @RegisterExtension
    static final FixtureWithRedis fixture = FixtureWithRedis.with("fixture.recording-log=true");

    private final HttpProbe http = fixture.http();
    private final SysConfigEditor editor = fixture.app().getBean(SysConfigEditor.class);
    private final RuleSnapshotHolder snapshots = fixture.app().getBean(RuleSnapshotHolder.class);
    private final RecordingInterceptionLog log = fixture.app().getBean(RecordingInterceptionLog.class);

    @BeforeEach
    void reset() {
        fixture.emptyRedis();
        log.clear();
    }

    @Test
    void aRuleInShadowModeLogsWhatItWouldDenyAndLetsItPass() {
        applied(() -> editor.setRuleMode(RuleId.of("fixture", "LimitedController.stacked#user"), RuleMode.SHADOW));

        List<HttpResponse<String>> responses = IntStream.range(0, 4)
                .mapToObj(i -> http.get("/stacked?usercode=sam")).toList();

        assertThat(responses).allSatisfy(response -> {
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("RateLimit-Policy"))
                    .as("a watching rule is invisible to clients").hasValue("\"LimitedController.stacked#ip\";q=100;w=60");
        });
        assertThat(log.recorded()).hasSize(2).allSatisfy(row -> {
            assertThat(row.shadow()).isTrue();
            assertThat(row.rule()).isEqualTo(RuleId.of("fixture", "LimitedController.stacked#user"));
            assertThat(row.user()).isEqualTo("sam");
            assertThat(row.limitCount()).isEqualTo(2);
        });
        // Counted on Redis as usual: the third request there, the fourth denied by what the instance remembered of it.
        assertThat(fixture.redis().commands().hget("ratelimit:counter:fixture:LimitedController.stacked#user:USER:sam",
                "count")).as("still counted").isEqualTo("3");

        applied(() -> editor.setRuleMode(RuleId.of("fixture", "LimitedController.stacked#user"), RuleMode.ENFORCE));
        assertThat(http.status("/stacked?usercode=sam")).isEqualTo(429);
        assertThat(log.recorded()).last().extracting(Interception::shadow).isEqualTo(false);
    }

    @Test
    void globalShadowModeLetsEveryRulePass() {
        applied(() -> editor.setGlobalMode(RuleMode.SHADOW));

        List<HttpResponse<String>> responses = IntStream.range(0, 5)
                .mapToObj(i -> http.get("/ip")).toList();

        assertThat(responses).allSatisfy(response -> {
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("RateLimit")).isEmpty();
        });
        assertThat(log.recorded()).hasSize(2).allSatisfy(row -> {
            assertThat(row.shadow()).isTrue();
            assertThat(row.ip()).isEqualTo("127.0.0.1");
        });
    }

    @Test
    void aDynamicRuleCanWatchToo() {
        applied(() -> {
            editor.setDynamicRule(RuleId.of("fixture", "OpenController.plain"), "1/60");
            editor.setRuleMode(RuleId.of("fixture", "OpenController.plain"), RuleMode.SHADOW);
        });

        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/open/plain?usercode=dina")).isEqualTo(200));

        assertThat(log.recorded()).extracting(Interception::rule, Interception::shadow)
                .containsOnly(tuple(RuleId.of("fixture", "OpenController.plain"), true)).hasSize(2);
    }

    @Test
    void withTheLogSwitchOffShadowDenialsAreNotLogged() {
        applied(() -> {
            editor.setGlobalMode(RuleMode.SHADOW);
            editor.setLogSwitch(false);
        });

        IntStream.range(0, 5).forEach(i -> assertThat(http.status("/ip")).isEqualTo(200));

        assertThat(log.recorded()).isEmpty();
    }

    /** Runs the edits and reads them into the snapshot at once, instead of waiting for the announcement. */
    private void applied(Runnable edits) {
        edits.run();
        snapshots.refresh();
    }
}
