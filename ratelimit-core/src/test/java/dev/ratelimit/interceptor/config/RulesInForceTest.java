package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Penalty;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one answer to "which rules are in force", asked directly: endpoints as plain values, the config
 * hash as the parser reads it, no Redis and no HTTP.
 */
class RulesInForceTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final RuleId ORDERS = RuleId.of("shop", "OrderController.create");
    private static final RuleId ORDERS_IP = RuleId.of("shop", "OrderController.create#ip");
    private static final RuleId OPEN = RuleId.of("shop", "StatusController.open");
    private static final RuleId PLANNED = RuleId.of("shop", "SearchController.search");
    private static final Endpoint CREATE = endpoint(RuleId.of("shop", "OrderController.create"), "/orders",
            limit(ORDERS, 5, 60, Dimension.USER, ""), limit(ORDERS_IP, 100, 60, Dimension.IP, ""));
    private static final Endpoint STATUS = endpoint(OPEN, "/status");
    private static final Endpoint SEARCH = endpoint(PLANNED, "/search", limit(PLANNED, 10, 60, Dimension.USER, "#plan"));

    @Test
    void anAnnotatedEndpointHasItsLimitsWithTheOperatorsValuesAndNotThoseSwitchedOff() {
        RulesInForce rules = rules(Map.of(ORDERS + ".count", "2", ORDERS + ".interval", "30", ORDERS + ".penalty", "600",
                ORDERS_IP + ".check", "0"));

        assertThat(rules.limits(CREATE, () -> "/orders")).singleElement().satisfies(limit -> {
            assertThat(limit.id()).isEqualTo(ORDERS);
            assertThat(limit.count()).isEqualTo(2);
            assertThat(limit.windowSeconds()).isEqualTo(30);
            assertThat(limit.penalty()).isEqualTo(new Penalty(600_000, 600_000));
        });
        assertThat(rules.limit(ORDERS_IP)).as("switched off").isEmpty();
        assertThat(rules.limits(CREATE, () -> "/orders")).isSameAs(rules.limits(CREATE, () -> "/orders"))
                .as("worked out once per snapshot, not per request");
    }

    /**
     * An operator changes a rule's algorithm at run time; a rule that cannot be counted so (a concurrency limit, a
     * cost settled after the response) keeps the annotation's, and its field is said to be ignored, and why.
     */
    @Test
    void anOperatorChangesARulesAlgorithmWhereTheRuleAllowsIt() {
        RuleId running = RuleId.of("shop", "ExportController.export");
        RuleId settled = RuleId.of("shop", "AiController.generate");
        Endpoint exports = endpoint(running, "/exports", new LimitDefinition(running, 2, 60, Dimension.USER,
                Algorithm.CONCURRENCY, "", LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE,
                CalendarQuota.NONE, ""));
        Endpoint generate = endpoint(settled, "/generate", new LimitDefinition(settled, 100, 60, Dimension.USER,
                Algorithm.TOKEN_BUCKET, "", LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE,
                new RequestCost(1, "", "#response.status"), CalendarQuota.NONE, ""));
        RulesInForce rules = RulesInForce.of(List.of(CREATE, exports, generate), Set.of("shop"), parse(Map.of(
                ORDERS + ".algorithm", " Sliding_Window ", running + ".algorithm", "token_bucket",
                settled + ".algorithm", "sliding_log", ORDERS_IP + ".algorithm", "concurrency")));

        assertThat(rules.limit(ORDERS).orElseThrow().algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
        assertThat(rules.rule(ORDERS).orElseThrow().overridden()).contains(Knob.ALGORITHM);
        assertThat(rules.rule(ORDERS).orElseThrow().inForce().algorithm()).isEqualTo("SLIDING_WINDOW");
        assertThat(rules.limit(running).orElseThrow().algorithm()).isEqualTo(Algorithm.CONCURRENCY);
        assertThat(rules.rule(running).orElseThrow().ignored()).containsOnlyKeys(running + ".algorithm")
                .hasEntrySatisfying(running + ".algorithm", reason -> assertThat(reason).contains("not a rate"));
        assertThat(rules.limit(settled).orElseThrow().algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
        assertThat(rules.rule(settled).orElseThrow().ignored().get(settled + ".algorithm"))
                .contains("costFromResponse");
        assertThat(rules.limit(ORDERS_IP).orElseThrow().algorithm()).as("a concurrency limit is not a rate's algorithm")
                .isEqualTo(Algorithm.FIXED_WINDOW);
        assertThat(rules.rule(ORDERS_IP).orElseThrow().ignored()).containsKey(ORDERS_IP + ".algorithm");
    }

    /**
     * An operator changes who a rule counts together; a limit per key or one its module's endpoints share keeps
     * the annotation's dimension, and its field is said to be ignored, and why; a value no rule counts by is refused.
     */
    @Test
    void anOperatorChangesWhoARuleCountsWhereTheRuleAllowsIt() {
        RuleId keyed = RuleId.of("shop", "TenantController.list");
        RuleId global = RuleId.of("shop", "_global");
        Endpoint tenants = endpoint(keyed, "/tenants", new LimitDefinition(keyed, 50, 60, Dimension.CUSTOM,
                Algorithm.FIXED_WINDOW, "#headers['X-Tenant']", LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE,
                RequestCost.ONE, CalendarQuota.NONE, ""));
        Endpoint shared = endpoint(RuleId.of("shop", "ReportController.run"), "/reports",
                limit(global, 100, 60, Dimension.GLOBAL, ""));
        RulesInForce rules = RulesInForce.of(List.of(CREATE, tenants, shared), Set.of("shop"), parse(Map.of(
                ORDERS + ".dimension", " IP ", ORDERS_IP + ".dimension", "method", keyed + ".dimension", "user",
                global + ".dimension", "ip")));

        assertThat(rules.limit(ORDERS).orElseThrow().dimension()).isEqualTo(Dimension.IP);
        assertThat(rules.rule(ORDERS).orElseThrow().overridden()).contains(Knob.DIMENSION);
        assertThat(rules.rule(ORDERS).orElseThrow().inForce().dimension()).isEqualTo("IP");
        assertThat(rules.limit(ORDERS_IP).orElseThrow().dimension()).isEqualTo(Dimension.METHOD);
        assertThat(rules.limit(keyed).orElseThrow().dimension()).isEqualTo(Dimension.CUSTOM);
        assertThat(rules.rule(keyed).orElseThrow().ignored().get(keyed + ".dimension")).contains("its key");
        assertThat(rules.limit(global).orElseThrow().dimension()).isEqualTo(Dimension.GLOBAL);
        assertThat(rules.rule(global).orElseThrow().ignored().get(global + ".dimension")).contains("share its counter");
        assertThat(parse(Map.of(PLANNED + ".dimension", "tenant")).ignored()).containsKey(PLANNED + ".dimension");
    }

    @Test
    void aDynRuleLimitsAnEndpointWithoutAnnotationOnlyAndSaysWhyItLimitsNothingElsewhere() {
        RulesInForce rules = rules(Map.of("dyn." + OPEN, "3/60 ip", "dyn." + ORDERS, "1/60", "dyn.shop.Gone.away", "1/60",
                "dyn.other.Their.endpoint", "1/60"));

        assertThat(rules.limits(STATUS, () -> "/status")).singleElement().extracting(LimitDefinition::id,
                LimitDefinition::count, LimitDefinition::dimension).containsExactly(OPEN, 3L, Dimension.IP);
        assertThat(rules.limits(CREATE, () -> "/orders")).extracting(LimitDefinition::id).containsExactly(ORDERS, ORDERS_IP);
        assertThat(rules.unappliedDynamicRules()).as("another module's rule is not this one's business")
                .containsOnlyKeys("dyn." + ORDERS, "dyn.shop.Gone.away");
        assertThat(rules.unappliedDynamicRules().get("dyn." + ORDERS).reason().key())
                .isEqualTo("ratelimit.config.annotatedEndpoint");
    }

    @Test
    void theMostSpecificUriRuleWinsAndOneSwitchedOffLeavesThePathUnlimited() {
        RulesInForce rules = rules(Map.of("dynuri./**", "100/60", "dynuri./status", "1/60"));
        assertThat(rules.limits(STATUS, () -> "/status")).singleElement().extracting(limit -> limit.id().rule())
                .isEqualTo("/status");
        assertThat(rules.limits(STATUS, () -> "/health")).singleElement().extracting(limit -> limit.id().rule())
                .isEqualTo("/**");

        RulesInForce off = rules(Map.of("dynuri./**", "100/60", "dynuri./status", "1/60", "shop./status.check", "0"));
        assertThat(off.limits(STATUS, () -> "/status")).as("the winner is off: not the next pattern either").isEmpty();
    }

    @Test
    void aClientsExceptionComesBeforeItsPlanWhichComesBeforeTheRule() {
        RulesInForce rules = rules(Map.of(PLANNED + ".plan.pro", "50/60",
                PLANNED + ".exception.vip", "500/60 until 2026-12-02T00:00:00Z",
                PLANNED + ".exception.late", "500/60 until 2026-12-01T11:00:00Z"));
        LimitDefinition declared = rules.limit(PLANNED).orElseThrow();

        assertThat(rules.resolvesPlans(declared)).isTrue();
        assertThat(rules.forClient(declared, "vip", "pro", CLOCK).count()).isEqualTo(500);
        assertThat(rules.forClient(declared, "ann", "pro", CLOCK).count()).isEqualTo(50);
        assertThat(rules.forClient(declared, "ann", "free", CLOCK).count()).isEqualTo(10);
        assertThat(rules.forClient(declared, "late", null, CLOCK).count()).as("an ended exception").isEqualTo(10);
    }

    /** A long or odd user code is counted by its hash: its exception, written as the operator typed it, applies. */
    @Test
    void anExceptionForAnIdentityTheCountersHashIsFoundByTheHash() {
        String longCode = "u".repeat(101);
        String odd = "team{blue}";
        RulesInForce rules = rules(Map.of(ORDERS + ".exception." + longCode, "500/60 until 2026-12-02T00:00:00Z",
                ORDERS + ".exception." + odd, "400/60 until 2026-12-02T00:00:00Z"));
        LimitDefinition declared = rules.limit(ORDERS).orElseThrow();

        assertThat(rules.forClient(declared, CounterIdentity.keyPart(longCode), null, CLOCK).count()).isEqualTo(500);
        assertThat(rules.forClient(declared, CounterIdentity.keyPart(odd), null, CLOCK).count()).isEqualTo(400);
        assertThat(rules.forClient(declared, CounterIdentity.keyPart("u".repeat(100)), null, CLOCK).count())
                .as("another long code").isEqualTo(5);
        assertThat(rules.rule(ORDERS).orElseThrow().exceptions()).as("shown as written")
                .containsOnlyKeys(longCode, odd);
    }

    @Test
    void aCalendarQuotaKeepsItsPeriodUnderAClientsLimit() {
        RuleId daily = RuleId.of("shop", "ReportController.daily");
        Endpoint endpoint = endpoint(daily, "/daily", new LimitDefinition(daily, 100, QuotaPeriod.DAY.longestSeconds(),
                Dimension.USER, Algorithm.FIXED_WINDOW, "", LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE,
                RequestCost.ONE, new CalendarQuota(QuotaPeriod.DAY, null), ""));
        RulesInForce rules = RulesInForce.of(List.of(endpoint), Set.of("shop"),
                parse(Map.of(daily + ".exception.big", "1000/60 until 2026-12-02T00:00:00Z")));

        LimitDefinition limit = rules.forClient(rules.limit(daily).orElseThrow(), "big", null, CLOCK);

        assertThat(limit.count()).isEqualTo(1000);
        assertThat(limit.windowSeconds()).isEqualTo(QuotaPeriod.DAY.longestSeconds());
    }

    @Test
    void eachRuleIsDescribedOnceWithWhatDiffersFromItsDeclaration() {
        RuleId shared = RuleId.of("shop", "Reports");
        Endpoint first = endpoint(RuleId.of("shop", "ReportController.first"), "/first",
                limit(shared, 4, 60, Dimension.USER, ""));
        Endpoint second = endpoint(RuleId.of("shop", "ReportController.second"), "/second",
                limit(shared, 4, 60, Dimension.USER, ""));
        RulesInForce rules = RulesInForce.of(List.of(CREATE, first, second, STATUS), Set.of("shop"),
                parse(Map.of(ORDERS + ".count", "2", ORDERS + ".mode", "shadow", ORDERS + ".penalty", "0",
                        ORDERS + ".interval", "60", "dyn." + OPEN, "1/60", "bogus.field", "x")));

        assertThat(rules.rules()).extracting(RuleDescription::id, RuleDescription::source).containsExactly(
                tuple(ORDERS, RuleDescription.Source.ANNOTATION), tuple(ORDERS_IP, RuleDescription.Source.ANNOTATION),
                tuple(shared, RuleDescription.Source.ANNOTATION), tuple(OPEN, RuleDescription.Source.DYN));
        RuleDescription orders = rules.rule(ORDERS).orElseThrow();
        assertThat(orders.overridden()).as("a value equal to the declaration is none").containsExactly(Knob.COUNT,
                Knob.MODE);
        assertThat(orders.text(Knob.COUNT)).isEqualTo("2");
        assertThat(orders.declaredText(Knob.COUNT)).isEqualTo("5");
        assertThat(orders.pattern()).isEqualTo("/orders");
    }

    /** The console's preview of a pattern asks the rules as they would be with it. */
    @Test
    void withOneMoreFieldTheRulesAreAsTheyWouldBe() {
        RulesInForce rules = rules(Map.of());

        RulesInForce candidate = rules.with("dynuri./stat*", "1");

        assertThat(rules.uriPattern("/status")).isEmpty();
        assertThat(candidate.uriPattern("/status")).hasValue("/stat*");
        assertThat(RulesInForce.matches("/stat*", "/status")).isTrue();
    }

    @Test
    void aRuleIdIsReadAgainstTheModulesKnownOnlyWhenOneModuleStartsIt() {
        assertThat(RuleId.parse("com.shop.OrderController.create", List.of("com.shop")))
                .isEqualTo(RuleId.of("com.shop", "OrderController.create")).extracting(RuleId::module)
                .isEqualTo("com.shop");
        assertThat(RuleId.parse("com.shop.OrderController.create", List.of("com.shop", "com"))).as("ambiguous").isNull();
        assertThat(RuleId.parse("other.Controller.x", List.of("shop"))).isNull();
    }

    /** Module demo's A.b and module demo.A's b are written alike, and are not the same rule. */
    @Test
    void idsSpeltAlikeAreDifferentRulesAndATextNamingBothResolvesToNone() {
        RuleId demos = RuleId.of("demo", "A.b");
        RuleId nested = RuleId.of("demo.A", "b");
        Endpoint first = endpoint(demos, "/a");
        Endpoint second = endpoint(nested, "/b");
        Endpoint alone = endpoint(RuleId.of("demo.A", "C.d"), "/c");

        RulesInForce rules = RulesInForce.of(List.of(first, second, alone), Set.of("demo", "demo.A"), parse(Map.of(
                "dyn.demo.A.b", "5/60", "dyn.demo.A.C.d", "7/60")));

        assertThat(demos).isNotEqualTo(nested).hasToString(nested.toString());
        assertThat(demos.compareTo(nested)).isNotZero();
        assertThat(rules.resolve("demo.A.b")).as("two modules' endpoints are written so").isEmpty();
        assertThat(rules.speltAs(nested)).containsExactly(nested, demos);
        assertThat(rules.resolve("demo.A.C.d")).as("known by one id only").hasValue(RuleId.of("demo.A", "C.d"));
        assertThat(rules.speltAs(RuleId.of("demo", "A.C.d"))).as("split at another module")
                .containsExactly(RuleId.of("demo.A", "C.d"));
        assertThat(rules.resolve("demo.A.Gone.away")).as("unknown, and two modules start it").isEmpty();
        assertThat(rules.resolve("demo.Gone.away")).as("unknown, one module starts it")
                .hasValue(RuleId.of("demo", "Gone.away"));
        assertThat(rules.unappliedDynamicRules()).containsOnlyKeys("dyn.demo.A.b");
        assertThat(rules.unappliedDynamicRules().get("dyn.demo.A.b").reason()).hasMessageContaining("demo.A.b")
                .hasMessageContaining("'demo'").hasMessageContaining("'demo.A'");
        assertThat(rules.rule(RuleId.of("demo.A", "C.d"))).hasValueSatisfying(rule ->
                assertThat(rule.inForce().text()).startsWith("7/60"));
    }

    private static RulesInForce rules(Map<String, String> hash) {
        return RulesInForce.of(List.of(CREATE, STATUS, SEARCH), Set.of("shop"), parse(hash));
    }

    private static RuleSnapshot parse(Map<String, String> hash) {
        return SysConfigParser.parse(hash, NOW, warning -> { });
    }

    private static Endpoint endpoint(RuleId id, String pattern, LimitDefinition... limits) {
        return new Endpoint(id, List.of(pattern), Set.of("GET"), "shop." + id.rule() + "()", List.of(limits), false);
    }

    private static LimitDefinition limit(RuleId id, long count, long windowSeconds, Dimension dimension, String plan) {
        return new LimitDefinition(id, count, windowSeconds, dimension, Algorithm.FIXED_WINDOW, "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE, RequestCost.ONE, CalendarQuota.NONE, plan);
    }
}
