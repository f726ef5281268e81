package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.audit.AuditEntry;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Console roles with the built-in login's users: a viewer sees every page and changes nothing, an
 * operator of one module changes that module's rules and clients only, and the operator of every module
 * changes everything. Every refusal is a 403, changes nothing and is in the audit trail; the pages hide
 * the forms the role cannot use. Passwords are hashes in Spring Security's formats, as teams keep them.
 */
class ConsoleRolesTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String SYSCONFIG = "ratelimit:sysconfig";
    /** {@code look} and {@code s3cret}, hashed by Spring Security's encoders. */
    private static final String LOOK_BCRYPT = "{bcrypt}$2a$10$IeQIO8J6R3o.LbTIpM1DT.EvCTc3qlWeWnf9ab9nHdI/lANK.IWoi";
    private static final String S3CRET_PBKDF2 = "{pbkdf2}b213d75995528be7faf26c0178e88d325348b4eb3d310fe27ea08d4df6972e26"
            + "fa177963411d7375";

    /** A rules document that sets the count of a module's {@code LimitedController.user}. */
    private static final String DOCUMENT = "ratelimit-rules: 1\nmodules:\n  %s:\n    LimitedController.user:\n      count: %s\n";

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext console;
    private static ConfigurableApplicationContext billing;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        console = FixtureApplication.start(redis.port(), "ratelimit.console.password=s3cret",
                "ratelimit.console.users.watcher.password=" + LOOK_BCRYPT,
                "ratelimit.console.users.fixture-team.password=" + S3CRET_PBKDF2,
                "ratelimit.console.users.fixture-team.role=operator",
                "ratelimit.console.users.fixture-team.modules=fixture");
        billing = FixtureApplication.start(redis.port(), "spring.application.name=app-billing",
                "ratelimit.console.enabled=false");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> redis.commands().exists("ratelimit:{apiindex}:fixture") == 1
                && redis.commands().exists("ratelimit:{apiindex}:billing") == 1
                && redis.commands().hexists(SYSCONFIG, "global.check"));
    }

    @AfterAll
    static void stop() {
        console.close();
        billing.close();
        redis.close();
    }

    @Test
    void aViewerSeesEveryPageWithoutAFormThatChangesSomething() {
        ConsoleSession viewer = signedIn("watcher", "look");
        for (String page : List.of("/", "/rules", "/rule?module=fixture&rule=LimitedController.user", "/dynamic",
                "/blocked", "/deny-list", "/logs", "/audit", "/rules/import")) {
            HttpResponse<String> shown = viewer.get(CONSOLE + page);
            assertThat(shown.statusCode()).as(page).isEqualTo(200);
            assertThat(shown.body()).as(page).contains("view only")
                    .doesNotContainPattern("action=\"[^\"]*/(rules/(rule|switches|whitelist|reset|knob|plan|exception|import)"
                            + "|dynamic/(endpoint|uri)|deny-list/(add|remove)|blocked/unblock)\"");
        }
        assertThat(viewer.get(CONSOLE + "/rules").body()).as("values still shown, not editable")
                .contains("name=\"count\"").contains("disabled");
    }

    @Test
    void aViewersChangeIsRefusedAndAudited() {
        ConsoleSession viewer = signedIn("watcher", "look");
        viewer.get(CONSOLE + "/rules");
        String before = redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.count");

        HttpResponse<String> refused = viewer.post(CONSOLE + "/rules/rule", "module", "fixture", "rule",
                "LimitedController.method", "enabled", "true", "count", "1", "interval", "60");

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("Your role does not allow this change");
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.count")).isEqualTo(before);
        assertThat(audit()).anySatisfy(entry -> {
            assertThat(entry.operator()).isEqualTo("watcher");
            assertThat(entry.wasRefused()).isTrue();
            assertThat(entry.subject()).isEqualTo("form " + CONSOLE + "/rules/rule");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyForm")
    void everyFormOfTheConsoleRefusesAViewer(String path) {
        ConsoleSession viewer = signedIn("watcher", "look");
        viewer.get(CONSOLE + "/rules");
        String version = redis.commands().hget(SYSCONFIG, "config.version");

        HttpResponse<String> answer = viewer.post(CONSOLE + path, "module", "fixture", "rule", "LimitedController.method",
                "enabled", "true", "count", "1", "interval", "60", "ips", "10.0.0.1", "users", "x", "global", "true",
                "knob", "penalty", "value", "60", "plan", "pro", "limit", "1/60", "identity", "acme",
                "until", "2999-01-01T00:00", "endpoint", "fixture.OpenController.plain", "pattern", "/open/**",
                "kind", "ip", "target", "192.0.2.1", "duration", "1h", "member", "USER:alice",
                "document", DOCUMENT.formatted("fixture", "1"), "mode", "MERGE",
                "version", version == null ? "0" : version);

        assertThat(answer.statusCode()).as(path).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "config.version")).as(path + " wrote nothing").isEqualTo(version);
    }

    /**
     * Every form the console's controllers take that may change something, so that a new one without the
     * check fails here.
     */
    static Stream<Arguments> everyForm() {
        RequestMappingHandlerMapping mappings = console.getBean("requestMappingHandlerMapping",
                RequestMappingHandlerMapping.class);
        return mappings.getHandlerMethods().values().stream()
                .map(HandlerMethod::getMethod)
                .filter(method -> method.getDeclaringClass().getPackageName().startsWith("dev.ratelimit.console"))
                .filter(method -> method.isAnnotationPresent(PostMapping.class))
                .filter(method -> !method.isAnnotationPresent(ReadOnlyForm.class))
                .flatMap(method -> Stream.of(method.getAnnotation(PostMapping.class).value()))
                .filter(path -> !path.equals("/login") && !path.equals("/logout"))
                .distinct().sorted().map(Arguments::of);
    }

    @Test
    void anOperatorOfOneModuleChangesItsRulesOnly() {
        ConsoleSession team = signedIn("fixture-team", "s3cret");
        assertThat(team.get(CONSOLE + "/rules").body()).contains("changes fixture")
                .doesNotContain("/rules/switches\"").doesNotContain("/rules/whitelist\"");

        HttpResponse<String> own = team.post(CONSOLE + "/rules/rule", "module", "fixture", "rule",
                "LimitedController.method", "enabled", "true", "count", "7", "interval", "60");
        assertThat(own.statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.method.count")).isEqualTo("7");

        team.get(CONSOLE + "/rules");
        HttpResponse<String> other = team.post(CONSOLE + "/rules/rule", "module", "billing", "rule",
                "LimitedController.method", "enabled", "true", "count", "7", "interval", "60");
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "billing.LimitedController.method.count")).isNotEqualTo("7");

        team.get(CONSOLE + "/deny-list");
        assertThat(team.post(CONSOLE + "/deny-list/add", "kind", "ip", "target", "192.0.2.66", "duration", "1h")
                .statusCode()).as("the deny list is every app's").isEqualTo(403);
        team.get(CONSOLE + "/dynamic");
        assertThat(team.post(CONSOLE + "/dynamic/endpoint", "endpoint", "billing.OpenController.plain", "limit", "1/60")
                .statusCode()).as("another module's endpoint").isEqualTo(403);
        assertThat(team.post(CONSOLE + "/dynamic/endpoint", "endpoint", "fixture.OpenController.plain", "limit", "1/60")
                .statusCode()).as("its own module's endpoint").isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "dyn.fixture.OpenController.plain")).isEqualTo("1/60");
        redis.commands().hset(SYSCONFIG, "dynuri./open/team/**", "20/10");
        String uriRulePage = CONSOLE + "/rule?module=fixture&rule=/open/team/**";
        console.getBean(RuleSnapshotHolder.class).refresh();
        assertThat(team.get(uriRulePage).body()).contains("id=\"rule-advice\"").as("a dynuri rule is every app's")
                .doesNotContain("id=\"advice-apply\"");
        assertThat(team.post(CONSOLE + "/rules/advice", "module", "fixture", "rule", "/open/team/**", "count", "30")
                .statusCode()).as("a dynuri rule's suggestion").isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "dynuri./open/team/**")).isEqualTo("20/10");
        redis.commands().hdel(SYSCONFIG, "dynuri./open/team/**");
        assertThat(audit()).anySatisfy(entry -> {
            assertThat(entry.operator()).isEqualTo("fixture-team");
            assertThat(entry.subject()).isEqualTo("billing.LimitedController.method.count");
            assertThat(entry.wasRefused()).isTrue();
        });
    }

    @Test
    void aDocumentThatTouchesAnotherModuleIsRefusedWhole() {
        ConsoleSession team = signedIn("fixture-team", "s3cret");
        team.get(CONSOLE + "/rules/import");
        String document = DOCUMENT.formatted("fixture", "9") + DOCUMENT.formatted("billing", "9")
                .replace("ratelimit-rules: 1\nmodules:\n", "");
        HttpResponse<String> preview = team.post(CONSOLE + "/rules/import", "document", document, "mode", "MERGE");
        assertThat(preview.statusCode()).isEqualTo(200);
        String version = redis.commands().hget(SYSCONFIG, "config.version");

        HttpResponse<String> applied = team.post(CONSOLE + "/rules/import", "document", document, "mode", "MERGE",
                "version", version);

        assertThat(applied.statusCode()).isEqualTo(403);
        assertThat(redis.commands().hget(SYSCONFIG, "fixture.LimitedController.user.count")).isNotEqualTo("9");
    }

    @Test
    void aViewerPreviewsADocumentAndIsOfferedNoApply() {
        ConsoleSession viewer = signedIn("watcher", "look");
        viewer.get(CONSOLE + "/rules/import");
        String version = redis.commands().hget(SYSCONFIG, "config.version");

        HttpResponse<String> preview = viewer.post(CONSOLE + "/rules/import/preview", "document",
                DOCUMENT.formatted("fixture", "8"), "mode", "MERGE");

        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(preview.body()).contains("fixture.LimitedController.user.count").doesNotContain("id=\"apply-form\"");
        assertThat(redis.commands().hget(SYSCONFIG, "config.version")).isEqualTo(version);
    }

    @Test
    void aPreviewOffersApplyOnlyToWhomItWouldNotBeRefused() {
        String document = DOCUMENT.formatted("fixture", "7") + DOCUMENT.formatted("billing", "7")
                .replace("ratelimit-rules: 1\nmodules:\n", "");
        ConsoleSession team = signedIn("fixture-team", "s3cret");
        team.get(CONSOLE + "/rules/import");
        HttpResponse<String> ofTwoModules = team.post(CONSOLE + "/rules/import/preview", "document", document,
                "mode", "MERGE");
        HttpResponse<String> ofTheirs = team.post(CONSOLE + "/rules/import/preview", "document",
                DOCUMENT.formatted("fixture", "7"), "mode", "MERGE");
        ConsoleSession admin = signedIn("admin", "s3cret");
        admin.get(CONSOLE + "/rules/import");
        HttpResponse<String> ofEveryModule = admin.post(CONSOLE + "/rules/import/preview", "document", document,
                "mode", "MERGE");

        assertThat(ofTwoModules.body()).doesNotContain("id=\"apply-form\"").contains("id=\"not-allowed\"")
                .contains("billing.LimitedController.user.count").doesNotContain("it changes fixture.");
        assertThat(ofTheirs.body()).contains("id=\"apply-form\"").doesNotContain("id=\"not-allowed\"");
        assertThat(ofEveryModule.body()).contains("id=\"apply-form\"");
    }

    @Test
    void theOperatorOfEveryModuleChangesWhatEveryAppShares() {
        ConsoleSession admin = signedIn("admin", "s3cret");
        assertThat(admin.get(CONSOLE + "/rules").body()).doesNotContain("view only").contains("/rules/switches\"");
        HttpResponse<String> saved = admin.post(CONSOLE + "/rules/whitelist", "ips", "198.51.100.7", "users", "");
        assertThat(saved.statusCode()).isEqualTo(302);
        assertThat(redis.commands().hget(SYSCONFIG, "whitelist.ips")).isEqualTo("198.51.100.7");
    }

    @Test
    void aWrongPasswordOrAnUnknownUserIsRefused() {
        assertThat(new ConsoleSession(FixtureApplication.port(console)).login("watcher", "s3cret").statusCode())
                .isEqualTo(401);
        assertThat(new ConsoleSession(FixtureApplication.port(console)).login("nobody", "look").statusCode())
                .isEqualTo(401);
    }

    private static ConsoleSession signedIn(String user, String password) {
        ConsoleSession session = new ConsoleSession(FixtureApplication.port(console));
        assertThat(session.login(user, password).statusCode()).as("login of " + user).isEqualTo(302);
        return session;
    }

    private static List<AuditEntry> audit() {
        return console.getBean(AuditTrail.class).recent(200);
    }
}
