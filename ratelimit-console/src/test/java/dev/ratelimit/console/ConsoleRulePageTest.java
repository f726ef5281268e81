package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page of one rule: its live traffic, configuration, blocked clients, top users and addresses,
 * newest interceptions and changes, each about that rule only.
 */
class ConsoleRulePageTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String RULE = "AlgorithmController.fixedWindow";
    private static final String PAGE = CONSOLE + "/rule?module=fixture&rule=" + RULE;
    private static final int EXTRA = 3;
    /** A complete 10-second bucket and the instances' write interval, with a margin. */
    private static final Duration WRITTEN = Duration.ofSeconds(25);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ConsoleInstances instances;
    private static ConsoleSession console;

    @BeforeAll
    static void start() {
        instances = ConsoleInstances.start("console-rule-page", 1);
        HttpProbe probe = instances.probe(0);
        for (int i = 0; i < AlgorithmController.LIMIT + EXTRA; i++) {
            probe.status(AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=rita");
            probe.status(AlgorithmController.path(Algorithm.SLIDING_WINDOW) + "?usercode=otto");
        }
        console = instances.signedIn(0);
    }

    @AfterAll
    static void stop() {
        instances.close();
    }

    @Test
    void thePageShowsTheRulesConfigurationBlockedClientsTopListsAndInterceptionsOnly() {
        String page = Awaitility.await("rita blocked and logged").atMost(WRITTEN)
                .until(() -> console.get(PAGE).body(), body -> body.contains("id=\"rule-blocked\"")
                        && between(body, "id=\"rule-blocked\"", "</table>").contains("rita")
                        && between(body, "id=\"rule-top-users\"", "</table>").contains(">" + EXTRA + "<"));

        assertThat(page).contains("<code id=\"rule-id\">fixture." + RULE + "</code>")
                .contains("data-live-url=\"/ratelimit-console/live.json?module=fixture&amp;rule=" + RULE + "\"")
                .contains("<td id=\"in-force\">" + AlgorithmController.LIMIT + " / 86400 s</td>");
        assertThat(between(page, "id=\"rule-top-ips\"", "</table>")).contains("127.0.0.1").contains(">" + EXTRA + "<")
                .as("deny for ...").contains("name=\"kind\" value=\"ip\"").contains("name=\"target\" value=\"127.0.0.1\"");
        assertThat(between(page, "id=\"rule-top-users\"", "</table>")).contains("name=\"kind\" value=\"user\"")
                .contains("name=\"target\" value=\"rita\"");
        String rows = between(page, "id=\"rule-log\"", "</table>");
        assertThat(rows).contains("rita").doesNotContain("otto");
        assertThat(page).doesNotContain("otto");
        assertThat(page).contains("href=\"/ratelimit-console/logs?module=fixture&amp;rule=" + RULE + "\"");
    }

    @Test
    void theLiveDataOfTheRuleCountOnlyThatRule() {
        JsonNode view = Awaitility.await("the rule's traffic in complete buckets, not the other rule's").atMost(WRITTEN)
                .until(() -> JSON.readTree(console.get(CONSOLE + "/live.json?module=fixture&rule=" + RULE).body()),
                        node -> total(node, "allowed") == AlgorithmController.LIMIT && total(node, "blocked") == EXTRA);

        assertThat(view.get("topRules").size()).isEqualTo(1);
        assertThat(view.get("topRules").get(0).get("rule").asString()).isEqualTo("fixture." + RULE);
        assertThat(view.get("topRules").get(0).get("name").asString()).isEqualTo(RULE);
    }

    @Test
    void anOperatorsChangeShowsInTheRulesHistoryAndInForce() {
        String edited = "AlgorithmController.slidingLog";
        console.get(CONSOLE + "/rules");
        HttpResponse<String> saved = console.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", edited, "enabled", "true",
                "count", "70", "interval", "86400");
        assertThat(saved.statusCode()).isEqualTo(302);

        String page = console.get(CONSOLE + "/rule?module=fixture&rule=" + edited).body();

        assertThat(page).contains("<td id=\"in-force\">70 / 86400 s</td>")
                .contains("<td id=\"declared\">" + AlgorithmController.LIMIT + " / 86400 s</td>");
        assertThat(between(page, "id=\"rule-changes\"", "</table>")).contains("fixture." + edited + ".count")
                .contains("70");
        assertThat(between(console.get(PAGE).body(), "id=\"rule-changes\"", "</table>"))
                .as("another rule's history").doesNotContain(edited);
    }

    /**
     * What each limit would have refused of the rule's demand (rita's {@code LIMIT + EXTRA} requests in one window):
     * the page's section, its data as the page reads them, and the suggestion set through the page's form, audited.
     * A rule of another algorithm records no demand and has no such section; every rule's page shows its requests per
     * window.
     * A {@code dyn} rule's suggestion is set in its {@code dyn} value.
     */
    @Test
    void thePageSaysWhatEachLimitWouldHaveRefusedAndAppliesTheSuggestion() {
        String advice = CONSOLE + "/advice.json?module=fixture&rule=" + RULE + "&since=PT1H&limit=" + AlgorithmController.LIMIT;
        JsonNode view = Awaitility.await("rita's demand written").atMost(WRITTEN)
                .until(() -> JSON.readTree(console.get(advice).body()),
                        node -> node.path("requests").asLong() == AlgorithmController.LIMIT + EXTRA);

        assertThat(view.path("clients").asLong()).isEqualTo(1);
        assertThat(view.path("refusedClients").asLong()).isEqualTo(1);
        assertThat(view.path("refusedRequests").asLong()).isEqualTo(EXTRA);
        assertThat(view.path("suggested").asLong()).isEqualTo(AlgorithmController.LIMIT + EXTRA);
        assertThat(view.path("topClients").get(0).path("client").asString()).isEqualTo("USER:rita");
        assertThat(view.path("curve").get(0).path("refusedRequests").asLong())
                .isEqualTo(AlgorithmController.LIMIT + EXTRA - 1);
        assertThat(console.get(advice.replace("PT1H", "P7D")).body()).contains("\"requests\":" + (AlgorithmController.LIMIT + EXTRA));
        assertThat(console.get(advice.replace("PT1H", "PT5M")).statusCode()).as("a period the page does not offer")
                .isEqualTo(400);
        assertThat(console.get(PAGE).body()).contains("id=\"rule-advice\"")
                .contains("data-advice-url=\"/ratelimit-console/advice.json?module=fixture&amp;rule=" + RULE + "\"")
                .contains("data-limit=\"" + AlgorithmController.LIMIT + "\"").contains("id=\"advice-apply\"")
                .contains("<select id=\"advice-since\">");
        String sliding = console.get(CONSOLE + "/rule?module=fixture&rule=AlgorithmController.slidingWindow").body();
        assertThat(sliding).doesNotContain("id=\"rule-advice\"").contains("id=\"rule-windows\"")
                .contains("data-windows-url=\"/ratelimit-console/windows.json?module=fixture&amp;rule="
                        + "AlgorithmController.slidingWindow\"").contains("data-limit=\"" + AlgorithmController.LIMIT + "\"")
                .contains("<select id=\"windows-since\">").contains("<option value=\"P7D\">");
        JsonNode windows = Awaitility.await("otto's requests written").atMost(WRITTEN)
                .until(() -> JSON.readTree(console.get(CONSOLE + "/windows.json?module=fixture&rule="
                        + "AlgorithmController.slidingWindow&since=P1D").body()),
                        node -> node.path("requests").asLong() == AlgorithmController.LIMIT + EXTRA);
        assertThat(windows.path("windows").size()).as("one day's window, or two at midnight").isBetween(1, 2);
        assertThat(console.get(PAGE).body()).as("a fixed window's page has both").contains("id=\"rule-windows\"");

        String other = "BatchController.fixedWindow";
        console.get(CONSOLE + "/rule?module=fixture&rule=" + other);
        HttpResponse<String> applied = console.post(CONSOLE + "/rules/advice", "module", "fixture", "rule", other,
                "count", "8");
        assertThat(applied.statusCode()).isEqualTo(302);
        assertThat(applied.headers().firstValue("Location").orElseThrow()).endsWith("#rule-advice");
        assertThat(instances.redis().commands().hget("ratelimit:sysconfig", "fixture." + other + ".count")).isEqualTo("8");
        assertThat(console.get(CONSOLE + "/audit").body()).contains("fixture." + other + ".count");

        // A dyn rule's suggestion: its count, its other parts kept; a dynuri rule's: every app's field.
        String dynamic = "OpenController.special";
        appliesTheSuggestion("dyn.fixture." + dynamic, dynamic, "5/60 ip", "9", "9/60 ip");
        String pattern = "/open/advised/**";
        appliesTheSuggestion("dynuri." + pattern, pattern, "20/10 ip", "30", "30/10 ip");
        assertThat(instances.redis().commands().hexists("ratelimit:sysconfig", "fixture." + pattern + ".count")).isFalse();
    }

    /** The page of the rule that {@code field} sets offers the suggestion, and applying it writes {@code applied}. */
    private void appliesTheSuggestion(String field, String rule, String value, String count, String applied) {
        instances.redis().commands().hset("ratelimit:sysconfig", field, value);
        instances.app(0).getBean(RuleSnapshotHolder.class).refresh();
        assertThat(console.get(CONSOLE + "/rule?module=fixture&rule=" + rule).body()).contains("id=\"rule-advice\"")
                .contains("id=\"advice-apply\"");
        assertThat(console.post(CONSOLE + "/rules/advice", "module", "fixture", "rule", rule, "count", count)
                .statusCode()).isEqualTo(302);
        assertThat(instances.redis().commands().hget("ratelimit:sysconfig", field)).isEqualTo(applied);
        assertThat(console.get(CONSOLE + "/audit").body()).contains(field);
        instances.redis().commands().hdel("ratelimit:sysconfig", field);
    }

    /** A cost settled after the response: the pages show the estimate and what settles it. */
    @Test
    void aCostSettledAfterTheResponseShowsItsEstimateAndItsExpression() {
        String page = console.get(CONSOLE + "/rule?module=fixture&rule=settled-roomy-FIXED_WINDOW").body();

        assertThat(page).contains("<td id=\"cost\"><code>2</code></td>")
                .contains("<td id=\"cost-from-response\"><code>#reported</code></td>");
        assertThat(between(console.get(CONSOLE + "/rules").body(), "id=\"rule-fixture.settled-roomy-TOKEN_BUCKET\"",
                "</tr>")).contains("Settled after the response at").contains("#response.getHeader(&#39;X-Units&#39;)");
    }

    /** A concurrency limit's window is its lease, and the pages say so. */
    @Test
    void aConcurrencyLimitIsShownAsRequestsAtOnceWithItsLease() {
        String page = console.get(CONSOLE + "/rule?module=fixture&rule=running").body();

        assertThat(page).contains("<td id=\"in-force\">2 at once, lease 10 s</td>")
                .contains("<td id=\"declared\">2 at once, lease 10 s</td>");
        assertThat(between(console.get(CONSOLE + "/rules").body(), "id=\"rule-fixture.running\"", "</tr>"))
                .contains("CONCURRENCY").contains("lease (s)");
    }

    /**
     * Plans and exceptions of the fixture's planned rule, through the rule page's forms: shown, in force on
     * the instance, audited, and a refused exception comes back with the reason and what was typed.
     */
    @Test
    void anOperatorGivesAPlanAndAClientTheirOwnLimitsOnTheRulePage() {
        String rulePage = CONSOLE + "/rule?module=fixture&rule=PlanController.planned";
        console.get(rulePage);
        assertThat(console.post(CONSOLE + "/rules/plan", "module", "fixture", "rule", "PlanController.planned",
                "plan", "gold", "limit", "4/60").statusCode()).isEqualTo(302);
        assertThat(console.post(CONSOLE + "/rules/exception", "module", "fixture", "rule", "PlanController.planned",
                "identity", "zoe", "limit", "6/60", "until", "2099-01-01T00:00").statusCode()).isEqualTo(302);

        String page = console.get(rulePage).body();
        assertThat(between(page, "id=\"plans\"", "</table>")).contains("gold").contains("4/60");
        assertThat(between(page, "id=\"exceptions\"", "</table>")).contains("zoe").contains("6/60").contains("2099-01-01");
        assertThat(between(page, "id=\"plan\"", "</td>")).contains("#headers[&#39;X-Plan&#39;]");
        String rules = console.get(CONSOLE + "/rules").body();
        assertThat(between(rules, "id=\"rule-fixture.PlanController.planned\"", "</tr>"))
                .as("the rules list shows the plan expression").contains("#headers[&#39;X-Plan&#39;]");
        assertThat(between(rules, "id=\"rule-fixture.BatchController.fixedWindow\"", "</tr>"))
                .as("and the cost expression").contains("getParameter(&#39;items&#39;)");
        HttpProbe probe = instances.probe(0);
        Awaitility.await("the instance applies the plan and the exception").atMost(Duration.ofSeconds(10))
                .until(() -> probe.status("/planned?usercode=max-probe", "X-Plan", "gold") == 200);
        int gold = 1;
        while (probe.status("/planned?usercode=max-probe", "X-Plan", "gold") == 200) {
            gold++;
        }
        assertThat(gold).as("the gold plan's 4").isEqualTo(4);
        int zoe = 0;
        while (probe.status("/planned?usercode=zoe", "X-Plan", "gold") == 200) {
            zoe++;
        }
        assertThat(zoe).as("zoe's exception, whatever her plan").isEqualTo(6);
        assertThat(console.get(CONSOLE + "/audit").body()).contains("fixture.PlanController.planned.plan.gold")
                .contains("fixture.PlanController.planned.exception.zoe");

        HttpResponse<String> refused = console.follow(console.post(CONSOLE + "/rules/exception", "module", "fixture",
                "rule", "PlanController.planned", "identity", "ann", "limit", "6/60", "until", "2001-01-01T00:00"));
        assertThat(refused.body()).contains("id=\"error\"").contains("ended").contains("value=\"ann\"");
        assertThat(console.post(CONSOLE + "/rules/exception/delete", "module", "fixture", "rule", "PlanController.planned",
                "identity", "zoe").statusCode()).isEqualTo(302);
        assertThat(between(console.get(rulePage).body(), "id=\"exceptions\"", "</table>")).doesNotContain("zoe");
    }

    /**
     * An annotated rule's penalty ({@code <rule>.penalty}) through the rule page: shown in force on both
     * pages, applied by the instance, in the rule's history; garbage comes back refused with what was
     * typed, and a blank field gives the declared penalty (none) back.
     */
    @Test
    void anOperatorGivesARulePenaltyOnTheRulePage() {
        String rule = "AlgorithmController.tokenBucket";
        String rulePage = CONSOLE + "/rule?module=fixture&rule=" + rule;
        console.get(rulePage);
        assertThat(console.post(CONSOLE + "/rules/knob", "module", "fixture", "rule", rule, "knob", "penalty", "value", " 100000 ")
                .statusCode()).isEqualTo(302);

        String page = console.get(rulePage).body();
        assertThat(between(page, "id=\"knob-penalty\"", "</td>")).contains("value=\"100000\"").doesNotContain("knob-as-declared-penalty");
        assertThat(between(page, "id=\"rule-changes\"", "</table>")).contains("fixture." + rule + ".penalty");
        assertThat(between(console.get(CONSOLE + "/rules").body(), "id=\"rule-fixture." + rule + "\"", "</tr>"))
                .contains("100000 s");
        HttpProbe probe = instances.probe(0);
        String path = AlgorithmController.path(Algorithm.TOKEN_BUCKET) + "?usercode=pia";
        Awaitility.await("the instance blocks a denied client for the operator's penalty").atMost(Duration.ofSeconds(10))
                .until(() -> {
                    HttpResponse<String> response = probe.get(path);
                    return response.statusCode() == 429
                            && Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()) > 86_400;
                });

        HttpResponse<String> refused = console.follow(console.post(CONSOLE + "/rules/knob", "module", "fixture",
                "rule", rule, "knob", "penalty", "value", "soon"));
        assertThat(refused.body()).contains("id=\"error\"").contains("value=\"soon\"");
        assertThat(console.post(CONSOLE + "/rules/knob", "module", "fixture", "rule", rule, "knob", "penalty", "value", "")
                .statusCode()).isEqualTo(302);
        assertThat(between(console.get(rulePage).body(), "id=\"knob-penalty\"", "</td>")).contains("knob-as-declared-penalty");
    }

    /**
     * Who an annotated rule counts together ({@code <rule>.dimension}) through the rule page: shown in force on both
     * pages and in the rule's history; a dimension no rule can be set to comes back refused with what was typed.
     */
    @Test
    void anOperatorChangesWhoARuleCountsOnTheRulePage() {
        String rule = "AlgorithmController.slidingLog";
        String rulePage = CONSOLE + "/rule?module=fixture&rule=" + rule;
        assertThat(between(console.get(rulePage).body(), "id=\"knob-dimension\"", "</td>")).contains("placeholder=\"user\"")
                .contains("knob-as-declared-dimension");
        assertThat(console.post(CONSOLE + "/rules/knob", "module", "fixture", "rule", rule, "knob", "dimension", "value", " Ip ")
                .statusCode()).isEqualTo(302);

        String page = console.get(rulePage).body();
        assertThat(between(page, "id=\"knob-dimension\"", "</td>")).contains("value=\"ip\"")
                .doesNotContain("knob-as-declared-dimension");
        assertThat(between(page, "id=\"rule-changes\"", "</table>")).contains("fixture." + rule + ".dimension");
        assertThat(between(console.get(CONSOLE + "/rules").body(), "id=\"rule-fixture." + rule + "\"", "</tr>"))
                .contains("IP").doesNotContain("USER");

        HttpResponse<String> refused = console.follow(console.post(CONSOLE + "/rules/knob", "module", "fixture",
                "rule", rule, "knob", "dimension", "value", "custom"));
        assertThat(refused.body()).contains("id=\"error\"").contains("value=\"custom\"");
    }

    @Test
    void aLimitDeclaredOnTheControllerClassSaysSoOnBothPages() {
        String fromClass = console.get(CONSOLE + "/rule?module=fixture&rule=ClassLimitedController.first").body();
        String own = console.get(CONSOLE + "/rule?module=fixture&rule=ClassLimitedController.own").body();

        assertThat(between(fromClass, "id=\"rule-source\"", "</td>")).contains("on its controller class");
        assertThat(between(own, "id=\"rule-source\"", "</td>")).doesNotContain("on its controller class");
        assertThat(between(console.get(CONSOLE + "/rules").body(), "id=\"rule-fixture.ClassLimitedController.first\"",
                "</tr>")).contains("on its controller class");
    }

    /**
     * A limited bean method and a rule defined in code are listed with the other rules, as calls (not HTTP):
     * the Java method, or the bean that defines the rule, where a request's URL would be; a call's wait.
     */
    @Test
    void callsOfBeanMethodsAndRulesDefinedInCodeAreShownAsNotHttp() {
        String method = console.get(CONSOLE + "/rule?module=fixture&rule=PartnerClient.queued").body();
        String code = console.get(CONSOLE + "/rule?module=fixture&rule=PartnerQuota").body();
        String rules = console.get(CONSOLE + "/rules").body();

        assertThat(between(method, "id=\"rule-source\"", "</td>")).contains("Declared by @RateLimit");
        assertThat(method).contains("Java method (calls, not HTTP):")
                .contains("dev.ratelimit.interceptor.fixture.PartnerClient.queued(java.lang.String)");
        assertThat(between(method, "id=\"max-wait\"", "</td>")).contains("3000 ms");
        assertThat(between(code, "id=\"rule-source\"", "</td>")).contains("Defined in code (RateLimitRule)");
        assertThat(code).contains("RateLimitRule bean &#39;partnerQuota&#39;");
        assertThat(between(rules, "id=\"rule-fixture.PartnerClient.queued\"", "</tr>"))
                .contains("Java method (calls, not HTTP):").contains("A refused call waits for its turn up to");
        assertThat(between(rules, "id=\"rule-fixture.PartnerQuota\"", "</tr>"))
                .contains("Defined in code (calls counted by RateLimitService, not HTTP):");
        assertThat(between(rules, "id=\"rule-fixture.AlgorithmController.fixedWindow\"", "</tr>"))
                .contains("/algorithm/FIXED_WINDOW").doesNotContain("not HTTP");
    }

    @Test
    void aRuleNoLongerConfiguredSaysSo() {
        HttpResponse<String> page = console.get(CONSOLE + "/rule?module=fixture&rule=Gone.rule");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("No rule of this name is configured now");
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        if (from < 0) {
            return "";
        }
        int to = text.indexOf(end, from);
        return text.substring(from, to < 0 ? text.length() : to);
    }

    private static long total(JsonNode view, String outcome) {
        double perSecond = view.get("total").get(outcome).valueStream().mapToDouble(JsonNode::asDouble).sum();
        return Math.round(perSecond * view.get("stepSeconds").asInt());
    }
}
