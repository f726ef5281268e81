package dev.ratelimit.interceptor.config.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PlanController;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Rules as code, against real Redis servers and the fixture app: what one environment's operators set is
 * exported, imported into another that has only its declarations, and exported again, identical; a
 * preview says exactly what apply writes; one bad value changes nothing; a module the target does not
 * know is refused; and a document applied after the config changed since its preview is refused.
 */
class RulesDocumentTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final RuleId USER = RuleId.of("fixture", "LimitedController.user");
    private static final RuleId SHORT = RuleId.of("fixture", "LimitedController.shortWindow");
    private static final RuleId IP = RuleId.of("fixture", "LimitedController.ip");
    private static final RuleId OPEN = RuleId.of("fixture", "OpenController.plain");

    private RedisServerProcess staging;
    private RedisServerProcess production;
    private ConfigurableApplicationContext stagingApp;
    private ConfigurableApplicationContext productionApp;

    @BeforeEach
    void start() {
        staging = RedisServerProcess.start();
        production = RedisServerProcess.start();
        stagingApp = FixtureApplication.start(staging.port());
        productionApp = FixtureApplication.start(production.port());
        for (RedisServerProcess redis : List.of(staging, production)) {
            Awaitility.await("the declarations merged").atMost(Duration.ofSeconds(30))
                    .until(() -> redis.commands().hexists(HASH, "declared." + USER + ".count"));
        }
    }

    @AfterEach
    void stop() {
        stagingApp.close();
        productionApp.close();
        staging.close();
        production.close();
    }

    @Test
    void exportedImportedIntoAnotherEnvironmentAndExportedAgainIsTheSameDocument() {
        Instant until = Instant.now().plus(Duration.ofDays(7)).truncatedTo(ChronoUnit.SECONDS);
        SysConfigEditor editor = stagingApp.getBean(SysConfigEditor.class);
        editor.setRuleLimit(USER, "2", "120");
        editor.setRuleSwitch(SHORT, false);
        editor.setRuleMode(IP, RuleMode.SHADOW);
        editor.setRulePenalty(USER, "300..3600");
        editor.setPlanLimit(PlanController.RULE, "pro", "9/60");
        editor.setException(PlanController.RULE, "acme:42", "20/60", until);
        editor.setDynamicRule(OPEN, "1/60 ip");
        editor.setUriRule("/open/**", "3/10");
        editor.setRuleSwitch(RuleId.of("fixture", "/open/**"), false);
        editor.setWhitelistIps("10.0.0.0/8, 2001:db8::/32");
        editor.setLogSwitch(false);
        String exported = exportOf(stagingApp, staging);

        RulesImport.Preview preview = documents(productionApp).preview(exported, RulesImport.Mode.MERGE);
        assertThat(preview.refused()).isEmpty();
        preview.apply();
        String again = exportOf(productionApp, production);

        assertThat(again).isEqualTo(exported);
        assertThat(exported).contains("count: 2  # declared: 50", "window: 120  # declared: 60",
                "check: off  # declared: on", "mode: shadow  # declared: enforce",
                "penalty: 300..3600  # declared: 0", "pro: 9/60", "'acme:42': '20/60 until " + until + "'",
                "limit: 1/60 ip  # dyn: the endpoint has no annotation", "'/open/**': 3/10",
                "check: off  # the uri rule /open/** in this module", "- '2001:db8::/32'", "log: off");
    }

    /** Every field the preview lists is written, from the value it shows to the value it shows, and nothing else. */
    @Test
    void thePreviewIsExactlyWhatIsApplied() {
        Map<String, String> before = production.commands().hgetall(HASH);
        String document = document("""
                modules:
                  fixture:
                    LimitedController.user:
                      count: 7
                      check: on
                    OpenController.plain:
                      limit: 2/60
                """);

        RulesImport.Preview preview = documents(productionApp).preview(document, RulesImport.Mode.MERGE);
        List<SysConfigChange> applied = preview.apply();

        assertThat(applied).extracting(SysConfigChange::field, SysConfigChange::oldValue, SysConfigChange::newValue)
                .containsExactlyElementsOf(preview.changes().stream()
                        .map(change -> tuple(change.field(), change.oldValue(),
                                change.newValue())).toList());
        assertThat(preview.changes()).extracting(RulesImport.Change::field, RulesImport.Change::kind).containsExactly(
                tuple(USER + ".count", RulesImport.Kind.CHANGED),
                tuple(USER + ".check", RulesImport.Kind.UNCHANGED),
                tuple("dyn." + OPEN, RulesImport.Kind.ADDED));
        Map<String, String> after = production.commands().hgetall(HASH);
        after.remove("config.version");
        before.remove("config.version");
        before.put(USER + ".count", "7");
        before.put("dyn." + OPEN, "2/60");
        assertThat(after).isEqualTo(before);
    }

    @Test
    void aDocumentWithOneBadValueChangesNothingAndSaysWhy() {
        Map<String, String> before = production.commands().hgetall(HASH);
        String document = document("""
                global:
                  log: off
                modules:
                  fixture:
                    LimitedController.user:
                      count: lots
                    LimitedController.shortWindow:
                      check: off
                """);

        RulesImport.Preview preview = documents(productionApp).preview(document, RulesImport.Mode.MERGE);

        assertThat(preview.refused()).singleElement().satisfies(refused -> {
            assertThat(refused.where()).isEqualTo("modules.fixture.LimitedController.user.count");
            assertThat(((InvalidValueException) refused.reason()).key()).isEqualTo("ratelimit.config.positive");
        });
        assertThat(preview.changes()).isEmpty();
        assertThatThrownBy(preview::apply).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("nothing was written");
        assertThat(production.commands().hgetall(HASH)).isEqualTo(before);
    }

    /** Promoting to an environment that runs other apps: their rules are refused, not written to apply to nothing. */
    @Test
    void aModuleOrARuleTheTargetDoesNotKnowIsRefused() {
        String document = document("""
                modules:
                  shop:
                    OrderController.create:
                      count: 5
                  fixture:
                    Nothing.here:
                      count: 5
                    LimitedController.user:
                      limit: 5/60
                """);

        RulesImport.Preview preview = documents(productionApp).preview(document, RulesImport.Mode.MERGE);

        assertThat(preview.refused()).extracting(RulesImport.Refused::where, refused ->
                        ((InvalidValueException) refused.reason()).key())
                .containsExactlyInAnyOrder(
                        tuple("modules.shop", "ratelimit.document.unknownModule"),
                        tuple("modules.fixture.Nothing.here", "ratelimit.document.unknownRule"),
                        tuple("modules.fixture.LimitedController.user.limit",
                                "ratelimit.document.notHere"));
    }

    /** Replace: within the module the document names, what it does not mention goes back to the declaration. */
    @Test
    void replaceSetsWhatTheDocumentDoesNotMentionBackToTheDeclaration() {
        SysConfigEditor editor = productionApp.getBean(SysConfigEditor.class);
        editor.setRuleCount(USER, "3");
        editor.setRuleSwitch(SHORT, false);
        editor.setRulePenalty(IP, "600");
        editor.edit().knob(SHORT, Knob.BATCH, "off").apply();
        editor.setDynamicRule(OPEN, "1/60");
        String document = document("""
                modules:
                  fixture:
                    LimitedController.user:
                      count: 4
                """);

        RulesImport.Preview preview = documents(productionApp).preview(document, RulesImport.Mode.REPLACE);
        assertThat(preview.refused()).isEmpty();
        preview.apply();

        Map<String, String> hash = production.commands().hgetall(HASH);
        assertThat(hash).containsEntry(USER + ".count", "4").containsEntry(SHORT + ".check", "1")
                .doesNotContainKeys(IP + ".penalty", SHORT + ".batch", "dyn." + OPEN);
    }

    @Test
    void aDocumentAppliedAfterTheConfigChangedSinceItsPreviewIsRefused() {
        RulesImport.Preview preview = documents(productionApp).preview(document("""
                modules:
                  fixture:
                    LimitedController.user:
                      count: 9
                """), RulesImport.Mode.MERGE);
        productionApp.getBean(SysConfigEditor.class).setRuleSwitch(SHORT, false);

        assertThatThrownBy(preview::apply).isInstanceOf(InvalidValueException.class)
                .satisfies(e -> assertThat(((InvalidValueException) e).key()).isEqualTo("ratelimit.config.changedSince"));
        assertThat(production.commands().hget(HASH, USER + ".count")).isEqualTo("50");
    }

    /** The export of an app once every instance applies what Redis holds, so that two exports compare. */
    private static String exportOf(ConfigurableApplicationContext app, RedisServerProcess redis) {
        String version = redis.commands().hget(HASH, "config.version");
        Awaitility.await("the app applies the config").atMost(Duration.ofSeconds(10)).until(() ->
                Objects.equals(Long.toString(app.getBean(RuleCatalog.class).current().snapshot().version()), version));
        return documents(app).export();
    }

    private static RuleDocuments documents(ConfigurableApplicationContext app) {
        return app.getBean(RuleDocuments.class);
    }

    private static String document(String body) {
        return RulesDocument.FORMAT_KEY + ": " + RulesDocument.FORMAT + "\n" + body;
    }
}
