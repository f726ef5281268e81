package dev.ratelimit.interceptor.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.blocked.BlockedClientRecorder;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.document.RuleDocuments;
import dev.ratelimit.interceptor.config.document.RulesImport;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The clients the actuator endpoints name (whitelists, deny-list entries and their notes, exceptions, blocked
 * clients, fields the limiter ignores) follow Spring Boot's convention for sensitive values,
 * {@code management.endpoint.<id>.show-values} and {@code roles}: never shown by default, each {@code ******};
 * shown to an authorized user with {@code when-authorized}, to everyone with {@code always}, and then still
 * through the app's {@code SanitizingFunction}s.
 */
class ActuatorShowValuesTest {

    private static final String EXPOSED = "management.endpoints.web.exposure.include=ratelimit,ratelimitrules";
    private static final String MASK = "******";
    private static final RuleId RULE = RuleId.of("fixture", "LimitedController.user");
    private static final String NOTE = "scraping the search";
    /** Every client the state names, and the note. */
    private static final List<String> NAMED = List.of("wl-user-7", "198.51.100.0/24", "mallory-9", NOTE, "eve-excepted",
            "zed-blocked", "ivan-ignored", "trudy-ignored");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void byDefaultNoClientAndNoNoteIsShownToAnyoneAndAHiddenRulesDocumentCannotBeImported() {
        ConfigurableApplicationContext app = env.start(HeaderUsersApplication.class, EXPOSED);
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        nameClientsOfEveryKind(app, http);

        for (String[] user : List.of(new String[0], new String[] {HeaderUsersApplication.USER, "ops",
                HeaderUsersApplication.ROLES, "ACTUATOR"})) {
            String report = get(http, "/actuator/ratelimit", user).body();
            String rules = get(http, "/actuator/ratelimitrules", user).body();
            assertThat(NAMED).allSatisfy(named -> assertThat(report).doesNotContain(named))
                    .allSatisfy(named -> assertThat(rules).doesNotContain(named));
        }
        JsonNode report = JSON.readTree(get(http, "/actuator/ratelimit").body());
        assertThat(report.path("snapshot").path("whitelistUsers").toString()).isEqualTo("[\"" + MASK + "\"]");
        assertThat(report.path("snapshot").path("whitelistIps").toString()).isEqualTo("[\"" + MASK + "\"]");
        assertThat(report.path("snapshot").path("ignored").has("deny.user." + MASK)).isTrue();
        assertThat(report.path("snapshot").path("ignored").has(RULE + ".exception." + MASK)).isTrue();
        assertThat(report.path("denyList").path("size").asInt()).isEqualTo(1);
        JsonNode denied = report.path("denyList").path("entries").get(0);
        assertThat(List.of(denied.path("kind").asString(), denied.path("target").asString(), denied.path("note").asString()))
                .containsExactly("user", MASK, MASK);
        JsonNode blocked = report.path("blocked").path("clients").get(0);
        assertThat(blocked.path("identity").asString()).isEqualTo(MASK);
        assertThat(blocked.path("member").asString()).isEqualTo("AlgorithmController.fixedWindow:USER:" + MASK);
        assertThat(rule(report).path("exceptions").has(MASK)).isTrue();
        assertThat(app.getBean(RateLimitEndpoint.class).report().denyList().entries().get(0).target())
                .as("without a web request (JMX) too").isEqualTo(MASK);

        String hidden = get(http, "/actuator/ratelimitrules").body();
        assertThat(hidden).contains("whitelist: '" + MASK + "'").contains("exceptions: '" + MASK + "'");
        RuleDocuments documents = app.getBean(RuleDocuments.class);
        for (RulesImport.Mode mode : RulesImport.Mode.values()) {
            assertThat(documents.preview(hidden, mode).refused()).as(mode + ": what it hides is refused, not replaced")
                    .extracting(RulesImport.Refused::where).contains("whitelist", "exceptions");
        }
    }

    @Test
    void whenAuthorizedAUserWithTheRoleSeesThemAndNobodyElse() {
        ConfigurableApplicationContext app = env.start(HeaderUsersApplication.class, EXPOSED,
                "management.endpoint.ratelimit.show-values=when-authorized", "management.endpoint.ratelimit.roles=OPS",
                "management.endpoint.ratelimitrules.show-values=when-authorized",
                "management.endpoint.ratelimitrules.roles=OPS");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        nameClientsOfEveryKind(app, http);

        for (String[] user : List.of(new String[0], new String[] {HeaderUsersApplication.USER, "dev",
                HeaderUsersApplication.ROLES, "DEV"})) {
            String report = get(http, "/actuator/ratelimit", user).body();
            assertThat(NAMED).allSatisfy(named -> assertThat(report).doesNotContain(named));
            assertThat(get(http, "/actuator/ratelimitrules", user).body()).doesNotContain("wl-user-7", "eve-excepted");
        }
        String[] ops = {HeaderUsersApplication.USER, "ops", HeaderUsersApplication.ROLES, "DEV,OPS"};
        String report = get(http, "/actuator/ratelimit", ops).body();
        assertThat(NAMED).allSatisfy(named -> assertThat(report).contains(named));
        assertThat(get(http, "/actuator/ratelimitrules", ops).body()).contains("- wl-user-7", "eve-excepted: ");
        assertThat(app.getBean(RateLimitEndpoint.class).report().denyList().entries().get(0).target())
                .as("without a web request (JMX), as Spring Boot does").isEqualTo("mallory-9");
    }

    @Test
    void alwaysShowsThemToEveryoneThroughTheAppsSanitizingFunctions() {
        ConfigurableApplicationContext app = env.start(HeaderUsersApplication.class, EXPOSED,
                "management.endpoint.ratelimit.show-values=always", "management.endpoint.ratelimitrules.show-values=always",
                "test.sanitize-notes=true");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        nameClientsOfEveryKind(app, http);

        String report = get(http, "/actuator/ratelimit").body();

        assertThat(NAMED.stream().filter(named -> !named.equals(NOTE)))
                .allSatisfy(named -> assertThat(report).contains(named));
        assertThat(JSON.readTree(report).path("denyList").path("entries").get(0).path("note").asString())
                .as("the app's SanitizingFunction").isEqualTo(MASK);
        assertThat(get(http, "/actuator/ratelimitrules").body()).contains("- wl-user-7", "- 198.51.100.0/24", "eve-excepted: ");
    }

    /** A whitelisted user and network, a denied user with a note, an exception, a blocked client, and ignored fields naming clients. */
    private void nameClientsOfEveryKind(ConfigurableApplicationContext app, HttpProbe http) {
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);
        editor.setWhitelistUsers("wl-user-7");
        editor.setWhitelistIps("198.51.100.0/24");
        editor.deny(DenyList.Kind.USER, "mallory-9", null, NOTE);
        editor.setException(RULE, "eve-excepted", "500/60", Instant.now().plus(Duration.ofDays(1)));
        env.redis().commands().hset("ratelimit:sysconfig", RULE + ".exception.ivan-ignored", "not an exception");
        env.redis().commands().hset("ratelimit:sysconfig", "deny.user.trudy-ignored", "not an end");
        app.getBean(RuleSnapshotHolder.class).refresh();
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=zed-blocked";
        for (int i = 0; i <= AlgorithmController.LIMIT; i++) {
            http.status(path);
        }
        app.getBean(BlockedClientRecorder.class).flush();
    }

    private static HttpResponse<String> get(HttpProbe http, String path, String... headers) {
        HttpResponse<String> response = http.get(path, headers);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response;
    }

    private static JsonNode rule(JsonNode report) {
        for (JsonNode rule : report.path("rules")) {
            if (rule.path("id").asString().equals(RULE.toString())) {
                return rule;
            }
        }
        throw new AssertionError("no rule " + RULE);
    }
}
