package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.advice.DemandRecorder;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The console served by one instance edits the rules that a second instance enforces. */
class ConsoleRulesTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String SYSCONFIG = "ratelimit:sysconfig";

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext consoleApp;
    private static ConfigurableApplicationContext otherApp;
    private ConsoleSession session;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        consoleApp = FixtureApplication.start(redis.port(), "ratelimit.console.password=s3cret");
        otherApp = FixtureApplication.start(redis.port(), "ratelimit.console.enabled=false");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> redis.commands().exists("ratelimit:{apiindex}:fixture") == 1
                && redis.commands().hexists(SYSCONFIG, "global.check"));
    }

    @AfterAll
    static void stop() {
        consoleApp.close();
        otherApp.close();
        redis.close();
    }

    @BeforeEach
    void signIn() {
        session = new ConsoleSession(FixtureApplication.port(consoleApp));
        HttpResponse<String> login = session.login("admin", "s3cret");
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.headers().firstValue("Location").orElseThrow()).endsWith(CONSOLE + "/");
        assertThat(login.headers().allValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                .startsWith("rlc_session=").contains("HttpOnly").contains("SameSite=Strict").contains("Path=" + CONSOLE));
    }

    @Test
    void everyPageNeedsALoginAndAWrongPasswordIsRefused() {
        ConsoleSession stranger = new ConsoleSession(FixtureApplication.port(consoleApp));
        HttpResponse<String> page = stranger.get(CONSOLE + "/rules");
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location").orElseThrow()).endsWith(CONSOLE + "/login");
        assertThat(stranger.get(CONSOLE + "/;x=1/rules").statusCode()).isIn(302, 400, 404);

        HttpResponse<String> wrong = stranger.login("admin", "guess");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("Wrong user name or password.");
        assertThat(stranger.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.user", "count", "1",
                "interval", "1").statusCode()).isEqualTo(403);
    }

    @Test
    void aStateChangingRequestWithoutTheCsrfTokenIsRefused() {
        session.get(CONSOLE + "/rules");
        HttpResponse<String> forged = session.postRaw(CONSOLE + "/rules/rule",
                Map.of("module", "fixture", "rule", "LimitedController.user", "count", "1", "interval", "60", "enabled", "true"));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.user.count")).isEqualTo("50");
    }

    @Test
    void listsTheAnnotatedRulesAndSavesARuleThatTheOtherInstanceApplies() {
        HttpResponse<String> rules = session.get(CONSOLE + "/rules");
        assertThat(rules.statusCode()).isEqualTo(200);
        assertThat(rules.body()).contains("fixture.LimitedController.stacked#ip").contains("/stacked");

        HttpResponse<String> saved = session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.method",
                "enabled", "true", "count", "2", "interval", "120");

        assertThat(saved.statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.count")).isEqualTo("2");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.interval")).isEqualTo("120");
        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> {
            return otherApp.getBean(RuleCatalog.class).current().limit(RuleId.of("fixture", "LimitedController.method"))
                    .map(LimitDefinition::count).orElse(0L) == 2;
        });
    }

    /** Post/redirect/get: a refresh of the page that shows the refusal posts nothing again. */
    /** A class-level rule that several methods share is one rule with one counter: one line, every path it covers. */
    @Test
    void aClassLevelRuleSharedByItsMethodsIsListedOnceWithEveryPath() {
        String page = session.get(CONSOLE + "/rules").body();

        assertThat(page.split("id=\"rule-fixture.SharedReports\"", -1)).as("lines of the shared rule").hasSize(2);
        String line = page.substring(page.indexOf("id=\"rule-fixture.SharedReports\""));
        line = line.substring(0, line.indexOf("</tr>"));
        assertThat(line).contains("/reports/daily").contains("/reports/monthly");
    }

    @Test
    void aRefusedValueComesBackWithTheReasonAndWhatWasTypedAndChangesNothing() {
        session.get(CONSOLE + "/rules");
        HttpResponse<String> refused = session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.ip",
                "enabled", "false", "count", "9", "interval", "lots");

        assertThat(refused.statusCode()).isEqualTo(302);
        HttpResponse<String> page = session.follow(refused);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("fixture.LimitedController.ip.interval: expected a whole number of at least 1, "
                + "got &#39;lots&#39;").contains("value=\"lots\"").contains("value=\"9\"");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.ip.count")).isEqualTo("3");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.ip.check")).isEqualTo("1");
    }

    /** What the console once saved ("Saved.") while the limiter applied q=1;w=9007199254740. */
    @Test
    void aWindowTheLimiterWouldNotApplyAsWrittenIsRefusedInTheOperatorsLanguage() {
        session.get(CONSOLE + "/rules?lang=ja");
        HttpResponse<String> page = session.follow(session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.method", "enabled", "true", "count", "5", "interval", "99999999999999"));

        assertThat(page.body()).contains("fixture.LimitedController.method: ウィンドウは最長 366 日 (31622400 秒) です。"
                + "指定: 99999999999999 秒");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.interval")).isNotEqualTo("99999999999999");
        session.get(CONSOLE + "/rules?lang=en");
    }

    @Test
    void aFieldTheLimiterIgnoresIsShownWithTheReason() {
        redis.commands().hset(SYSCONFIG, "fixture.LimitedController.globalA.interval", "99999999999999");
        try {
            assertThat(session.get(CONSOLE + "/rules").body()).contains("fixture.LimitedController.globalA.interval: "
                    + "a window is at most 366 days (31622400 s), got 99999999999999 s");
        } finally {
            redis.commands().hset(SYSCONFIG, "fixture.LimitedController.globalA.interval", "60");
        }
    }

    @Test
    void fieldsOfARuleNoModuleDeclaresAreRefused() {
        session.get(CONSOLE + "/rules");
        HttpResponse<String> page = session.follow(session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "Nope.rule",
                "enabled", "true", "count", "1", "interval", "1"));

        assertThat(page.body()).contains("&#39;fixture.Nope.rule&#39;: no module declares this rule in its API index");
        assertThat(redis.commands().hkeys(SYSCONFIG)).noneMatch(field -> field.startsWith("fixture.Nope.rule"));
    }

    @Test
    void anOperatorsValueIsShownAsSuchAndCanBeResetToTheDeclaration() {
        session.get(CONSOLE + "/rules");
        session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.shortWindow", "enabled", "true",
                "count", "7", "interval", "1");
        HttpResponse<String> rules = session.get(CONSOLE + "/rules");
        assertThat(rules.body()).containsPattern("Set by admin at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}: kept across deploys");

        assertThat(session.post(CONSOLE + "/rules/reset", "module", "fixture", "rule", "LimitedController.shortWindow").statusCode())
                .isEqualTo(302);

        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.shortWindow.count")).isEqualTo("2");
        assertThat(session.get(CONSOLE + "/audit").body()).contains("fixture.LimitedController.shortWindow.count");
    }

    /**
     * "Observe" on an endpoint without a rule: a dyn rule in shadow mode that refuses no one, whose demand the rule
     * page then shows; an endpoint with a rule is not observed over it.
     */
    @Test
    void anObservedEndpointRefusesNoOneAndItsDemandIsRecorded() {
        String endpoint = "fixture.OpenController.special";
        assertThat(session.get(CONSOLE + "/dynamic").body()).contains("id=\"observe-endpoint\"");
        assertThat(session.post(CONSOLE + "/dynamic/observe", "endpoint", endpoint).statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "dyn." + endpoint)).isEqualTo("1000000/60");
        assertThat(redis.commands().hget(SYSCONFIG, endpoint + ".mode")).isEqualTo("shadow");

        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() ->
                otherApp.getBean(RuleSnapshotHolder.class).current().dynamicRules().containsKey(endpoint));
        HttpProbe other = new HttpProbe(FixtureApplication.port(otherApp));
        for (int i = 0; i < 3; i++) {
            assertThat(other.status("/open/special?usercode=olga")).isEqualTo(200);
        }
        otherApp.getBean(DemandRecorder.class).flush();
        String advice = session.get(CONSOLE + "/advice.json?module=fixture&rule=OpenController.special&since=PT1H&limit=2")
                .body();
        assertThat(advice).contains("\"requests\":3").contains("\"refusedRequests\":1");
        assertThat(session.get(CONSOLE + "/rule?module=fixture&rule=OpenController.special").body())
                .as("a dyn rule's suggestion is set in its dyn value").contains("id=\"rule-advice\"")
                .contains("id=\"advice-apply\"");

        session.get(CONSOLE + "/dynamic");
        HttpResponse<String> again = session.follow(session.post(CONSOLE + "/dynamic/observe", "endpoint", endpoint));
        assertThat(again.body()).contains("id=\"error\"").contains("has a dyn rule already");
        session.get(CONSOLE + "/dynamic");
        assertThat(session.post(CONSOLE + "/dynamic/endpoint/delete", "endpoint", endpoint).statusCode()).isEqualTo(302);
        redis.commands().hdel(SYSCONFIG, endpoint + ".mode");
        redis.commands().publish("ratelimit:config-changed", endpoint + ".mode");
    }

    @Test
    void aDynamicRulePickedFromTheIndexLimitsTheOtherInstance() {
        HttpResponse<String> page = session.get(CONSOLE + "/dynamic");
        assertThat(page.body()).contains("<option value=\"fixture.OpenController.plain\">");
        HttpProbe other = new HttpProbe(FixtureApplication.port(otherApp));

        assertThat(session.post(CONSOLE + "/dynamic/endpoint", "endpoint", "fixture.OpenController.plain",
                "limit", "1/60").statusCode()).isEqualTo(302);

        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() ->
                otherApp.getBean(RuleSnapshotHolder.class).current().dynamicRules().containsKey("fixture.OpenController.plain"));
        assertThat(other.status("/open/plain?usercode=console-test")).isEqualTo(200);
        assertThat(other.status("/open/plain?usercode=console-test")).isEqualTo(429);

        session.get(CONSOLE + "/dynamic");
        assertThat(session.post(CONSOLE + "/dynamic/endpoint/delete", "endpoint", "fixture.OpenController.plain")
                .statusCode()).isEqualTo(302);
        assertThat(redis.commands().hexists(SYSCONFIG, "dyn.fixture.OpenController.plain")).isFalse();
    }

    @Test
    void aDynamicRuleCanCountPerAddressSoThatAnonymousTrafficIsLimitedToo() {
        session.get(CONSOLE + "/dynamic");
        assertThat(session.post(CONSOLE + "/dynamic/uri", "pattern", "/open/special", "limit", "1/60",
                "dimension", "ip", "algorithm", "sliding_window").statusCode()).isEqualTo(302);
        try {
            assertThat(redis.commands().hget(SYSCONFIG, "dynuri./open/special")).isEqualTo("1/60 ip sliding_window");
            Awaitility.await().atMost(Duration.ofSeconds(1)).until(() ->
                    !otherApp.getBean(RuleSnapshotHolder.class).current().uriRules().isEmpty());
            HttpProbe other = new HttpProbe(FixtureApplication.port(otherApp));
            assertThat(other.status("/open/special")).isEqualTo(200);
            assertThat(other.status("/open/special")).as("no user, counted by address").isEqualTo(429);
        } finally {
            redis.commands().hdel(SYSCONFIG, "dynuri./open/special");
            redis.commands().publish("ratelimit:config-changed", "dynuri./open/special");
        }
    }

    @Test
    void aBadDynamicLimitIsExplained() {
        session.get(CONSOLE + "/dynamic");
        HttpResponse<String> refused = session.post(CONSOLE + "/dynamic/uri", "pattern", "/open/**", "limit", "0/60");
        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(session.follow(refused).body()).contains("&#39;0/60&#39;").contains("value=\"/open/**\"");
        assertThat(redis.commands().hexists(SYSCONFIG, "dynuri./open/**")).isFalse();
    }

    /** A crafted post: a dyn rule for an endpoint that does not exist, and one for an annotated endpoint. */
    @Test
    void aDynamicRuleThatCouldApplyToNothingIsRefusedAndOneInTheHashIsShownAsNotApplied() {
        session.get(CONSOLE + "/dynamic");
        assertThat(session.follow(session.post(CONSOLE + "/dynamic/endpoint", "endpoint", "fixture.DoesNot.exist",
                "limit", "1/60")).body()).contains("no module has this endpoint in its API index");
        assertThat(session.follow(session.post(CONSOLE + "/dynamic/endpoint", "endpoint", "fixture.LimitedController.user",
                "limit", "1/60")).body()).contains("has @RateLimit: a dyn rule never applies to it");
        assertThat(redis.commands().hkeys(SYSCONFIG)).noneMatch(field -> field.startsWith("dyn."));

        redis.commands().hset(SYSCONFIG, "dyn.fixture.DoesNot.exist", "1/60");
        try {
            assertThat(session.get(CONSOLE + "/dynamic").body()).contains("fixture.DoesNot.exist")
                    .contains("&#39;fixture.DoesNot.exist&#39;: no module has this endpoint in its API index");
        } finally {
            redis.commands().hdel(SYSCONFIG, "dyn.fixture.DoesNot.exist");
        }
    }

    @Test
    void thePreviewShowsWhichEndpointsAPatternLimitsAndWhichPatternWins() {
        redis.commands().hset(SYSCONFIG, "dynuri./open/special", "1/60");
        try {
            HttpResponse<String> preview = session.get(CONSOLE + "/dynamic?preview=/open/**");

            assertThat(preview.body()).contains("fixture.OpenController.plain").contains("applies")
                    .contains("a more specific pattern applies: /open/special");
        } finally {
            redis.commands().hdel(SYSCONFIG, "dynuri./open/special");
        }
    }

    @Test
    void whatAPageShowsIsEscaped() {
        HttpResponse<String> preview = session.get(CONSOLE + "/dynamic?preview=/open/%3Cscript%3Ealert(1)%3C/script%3E");
        assertThat(preview.body()).doesNotContain("<script>alert(1)</script>").contains("&lt;script&gt;");
    }

    @Test
    void theConsoleItselfIsNeverRateLimited() {
        redis.commands().hset(SYSCONFIG, "dynuri./**", "1/60");
        redis.commands().publish("ratelimit:config-changed", "dynuri./**");
        try {
            Awaitility.await().atMost(Duration.ofSeconds(1)).until(() ->
                    !consoleApp.getBean(RuleSnapshotHolder.class).current().uriRules().isEmpty());
            for (int i = 0; i < 3; i++) {
                assertThat(session.get(CONSOLE + "/rules?usercode=operator").statusCode()).isEqualTo(200);
            }
        } finally {
            redis.commands().hdel(SYSCONFIG, "dynuri./**");
            redis.commands().publish("ratelimit:config-changed", "dynuri./**");
        }
    }

    @Test
    void theWhitelistIsRefusedWholeWhenAnEntryIsBadAndSavedWhenAllAreGood() {
        session.get(CONSOLE + "/rules");
        HttpResponse<String> refused = session.post(CONSOLE + "/rules/whitelist", "ips", "10.0.0.0/8, proxy.internal",
                "users", "ops");
        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(session.follow(refused).body())
                .contains("whitelist.ips: &#39;proxy.internal&#39; is not an IP address or CIDR block")
                .contains("value=\"10.0.0.0/8, proxy.internal\"");
        assertThat(redis.commands().hexists(SYSCONFIG, "whitelist.ips")).isFalse();

        assertThat(session.post(CONSOLE + "/rules/whitelist", "ips", "10.0.0.0/8, 2001:db8::/32", "users", "ops, ci")
                .statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "whitelist.ips")).isEqualTo("10.0.0.0/8,2001:db8::/32");
        assertThat(redis.commands().hget(SYSCONFIG, "whitelist.users")).isEqualTo("ops,ci");
        redis.commands().hdel(SYSCONFIG, "whitelist.ips", "whitelist.users");
    }

    @Test
    void aRuleIsPutInShadowModeOnEveryInstanceAndBack() {
        session.get(CONSOLE + "/rules");
        assertThat(session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.globalB", "enabled", "true",
                "shadow", "true", "count", "4", "interval", "60").statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.globalB.mode")).isEqualTo("shadow");
        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> otherApp.getBean(RuleSnapshotHolder.class)
                .current().shadowRules().contains("fixture.LimitedController.globalB"));
        assertThat(session.get(CONSOLE + "/rules").body()).containsPattern(
                "name=\"shadow\" value=\"true\"[^>]*form=\"rule-fixture-\\d+\"[^>]*checked");
        session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.globalB", "enabled", "true",
                "count", "4", "interval", "60");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.globalB.mode")).isEqualTo("enforce");
    }

    /**
     * Rules as code in the console: the export is the rules document; an import shows exactly what it
     * would change and writes nothing until applied; applied, it is one write, applied by the other
     * instance and audited under the operator's name; a refused value is explained in the operator's language.
     */
    @Test
    void theRulesAreExportedAndADocumentIsPreviewedThenAppliedAndAudited() {
        HttpResponse<String> exported = session.get(CONSOLE + "/rules/export");
        assertThat(exported.statusCode()).isEqualTo(200);
        assertThat(exported.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/yaml");
        assertThat(exported.headers().firstValue("Content-Disposition").orElseThrow()).contains("ratelimit-rules-");
        assertThat(exported.body()).contains("ratelimit-rules: 1", "global:", "modules:");

        String document = "ratelimit-rules: 1\nmodules:\n  fixture:\n    LimitedController.bucket:\n      count: 9\n";
        session.get(CONSOLE + "/rules/import");
        HttpResponse<String> preview = session.post(CONSOLE + "/rules/import", "document", document, "mode", "MERGE");
        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(preview.body()).contains("fixture.LimitedController.bucket.count").contains(">changed<");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.bucket.count")).as("a preview writes nothing")
                .isEqualTo("2");
        String version = preview.body().replaceAll("(?s).*name=\"version\" value=\"(\\d+)\".*", "$1");

        HttpResponse<String> applied = session.post(CONSOLE + "/rules/import", "document", document, "mode", "MERGE",
                "version", version);
        assertThat(applied.statusCode()).isEqualTo(302);
        assertThat(session.follow(applied).body()).contains("Imported: 1 field(s) changed.");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.bucket.count")).isEqualTo("9");
        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> otherApp.getBean(RuleCatalog.class).current()
                .limit(RuleId.of("fixture", "LimitedController.bucket")).map(LimitDefinition::count).orElse(0L) == 9);
        assertThat(session.get(CONSOLE + "/audit").body()).contains("fixture.LimitedController.bucket.count");

        session.get(CONSOLE + "/rules/import?lang=ja");
        HttpResponse<String> refused = session.post(CONSOLE + "/rules/import", "document",
                "ratelimit-rules: 1\nmodules:\n  shop:\n    Orders.create:\n      count: 1\n", "mode", "MERGE");
        assertThat(refused.body()).contains("モジュール &#39;shop&#39; はここでは不明です").doesNotContain("apply-form");
        session.get(CONSOLE + "/rules?lang=en");
        session.post(CONSOLE + "/rules/reset", "module", "fixture", "rule", "LimitedController.bucket");
    }

    /** The tests' redis-server keeps the default policy, noeviction: nothing without a TTL can be evicted. */
    @Test
    void theOverviewSaysWhetherAFullRedisMayEvictTheRules() {
        String overview = session.get(CONSOLE + "/").body();

        assertThat(overview).contains("id=\"maxmemory-policy\">noeviction<")
                .contains("Only keys with a TTL can be evicted");
    }
}
