package dev.ratelimit.console;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.CodeRules;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.fixture.PartnerClient;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.fixture.PlanController;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The kinds of rule and of client the limiter knows, derived from the enums of its rule model, and the
 * fixture app's state with one of each: every kind of rule in force (the fixture's annotations, and what
 * operators set: {@code dyn} and {@code dynuri} rules, a plan, an exception, shadow mode, a switch off), a
 * client of every kind blocked, and a deny-list entry of every kind with a request it refused. A kind an
 * enum gains has no fixture here, and {@link #missingRuleKinds} or {@link #missingClientKinds} name it.
 */
final class EveryKind {

    static final String MODULE = "fixture";
    /** Features of a rule that are not an enum's values, each a kind of rule the pages show differently. */
    static final List<String> FEATURES = List.of("declared on the class", "calendar quota", "cost settled after the response",
            "cost expression", "countWhen", "penalty", "plan", "client exception", "switched off", "operator's value");
    private static final String DAY = "86400";
    private static final Duration DENY_APPLIED = Duration.ofSeconds(2);

    private EveryKind() {
    }

    /** Every kind of rule: what declares it, what it limits, its algorithm, whom it counts, its mode, and each feature. */
    static Set<String> everyRuleKind() {
        Set<String> kinds = new TreeSet<>(enumKinds());
        Arrays.stream(RuleMode.values()).map(mode -> "mode " + mode).forEach(kinds::add);
        kinds.addAll(FEATURES);
        return kinds;
    }

    /** The kinds a rule is of. */
    static Set<String> kindsOf(RuleDescription rule) {
        LimitDescription limit = rule.inForce();
        Set<String> kinds = new TreeSet<>(List.of("source " + rule.source(), "kind " + rule.kind(),
                "algorithm " + limit.algorithm(), "dimension " + limit.dimension(), "mode " + rule.mode()));
        Map<String, Boolean> features = Map.of("declared on the class", rule.declaredOnClass(),
                "calendar quota", limit.quota() != null,
                "cost settled after the response", limit.costFromResponse() != null,
                "cost expression", limit.cost() != null && !limit.cost().chars().allMatch(Character::isDigit),
                "countWhen", limit.countWhen() != null,
                "penalty", limit.penalty() != null,
                "plan", !rule.plans().isEmpty(),
                "client exception", !rule.exceptions().isEmpty(),
                "switched off", !rule.enabled(),
                "operator's value", !rule.overridden().isEmpty());
        features.forEach((feature, present) -> {
            if (present) {
                kinds.add(feature);
            }
        });
        return kinds;
    }

    /** Every kind of blocked client: whom its rule counts, with which algorithm, what it limits and what declares it. */
    static Set<String> everyClientKind() {
        return enumKinds();
    }

    /** The kinds a blocked client is of; its rule from {@code rules} ({@code _global} is every GLOBAL limit's counter). */
    static Set<String> kindsOf(BlockedClient client, RulesInForce rules) {
        String[] counted = client.dimension().split("@");
        Set<String> kinds = new TreeSet<>(List.of("dimension " + counted[0],
                "algorithm " + (counted.length > 1 ? counted[1] : Algorithm.FIXED_WINDOW.name())));
        rules.rule(RuleId.of(client.module(), client.rule())).ifPresent(rule -> {
            kinds.add("kind " + rule.kind());
            kinds.add("source " + rule.source());
        });
        return kinds;
    }

    static Set<String> missingRuleKinds(RulesInForce rules) {
        Set<String> missing = everyRuleKind();
        rules.rules().forEach(rule -> missing.removeAll(kindsOf(rule)));
        return missing;
    }

    static Set<String> missingClientKinds(List<BlockedClient> blocked, RulesInForce rules) {
        Set<String> missing = everyClientKind();
        blocked.forEach(client -> missing.removeAll(kindsOf(client, rules)));
        return missing;
    }

    private static Set<String> enumKinds() {
        return Stream.of(
                Arrays.stream(RuleDescription.Source.values()).map(source -> "source " + source),
                Arrays.stream(Endpoint.Kind.values()).map(kind -> "kind " + kind),
                Arrays.stream(Algorithm.values()).map(algorithm -> "algorithm " + algorithm),
                Arrays.stream(Dimension.values()).map(dimension -> "dimension " + dimension))
                .flatMap(kinds -> kinds).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Puts a rule of every kind in force and blocks a client of every kind; every window a day long, so that
     * no block ends while the pages are read.
     */
    static void ruleAndClientOfEachKind(ConfigurableApplicationContext app, HttpProbe http) {
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);
        for (String rule : List.of("LimitedController.ip", "LimitedController.method", "LimitedController.globalA",
                "LimitedController.globalB", "CustomKeyController.apiKey", "ClassLimitedController.first")) {
            editor.setRuleLimit(RuleId.of(MODULE, rule), "2", DAY);
        }
        editor.setDynamicRule(RuleId.of(MODULE, "OpenController.plain"), "2/" + DAY + " method");
        editor.setUriRule("/open/special", "2/" + DAY + " ip sliding_log");
        editor.setPlanLimit(PlanController.RULE, "pro", "1/" + DAY);
        editor.setException(RuleId.of(MODULE, "AlgorithmController.fixedWindow"), "vip", "1/" + DAY,
                Instant.now().plus(Duration.ofDays(1)));
        editor.setRuleMode(RuleId.of(MODULE, "LimitedController.bucket"), RuleMode.SHADOW);
        editor.setRuleSwitch(RuleId.of(MODULE, "LimitedController.shortWindow"), false);
        editor.setWhitelistUsers("trusted-user");
        editor.setWhitelistIps("10.0.0.0/8");

        for (Algorithm algorithm : Algorithm.values()) {
            if (algorithm != Algorithm.CONCURRENCY) {
                refuseOnce(http, PenaltyController.path(algorithm) + "?usercode=penalized-" + algorithm, PenaltyController.LIMIT);
            }
        }
        refuseOnce(http, "/ip", 2);
        refuseOnce(http, "/method", 2);
        refuseOnce(http, "/global/a", 2);
        refuseOnce(http, "/api-key", 2, "X-Api-Key", "matrix-key");
        refuseOnce(http, "/open/plain", 2);
        refuseOnce(http, "/open/special", 2);
        refuseOnce(http, "/classwide/first?usercode=classwide", 2);
        refuseOnce(http, "/quota/day?usercode=quota-user", 50);
        refuseOnce(http, "/planned?usercode=pro-user", 1, "X-Plan", "pro");
        refuseOnce(http, "/algorithm/FIXED_WINDOW?usercode=vip", 1);
        refuseOnce(http, "/relay?usercode=relay-user", PartnerClient.PER_USER);

        RateLimitService service = app.getBean(RateLimitService.class);
        RuleId code = RuleId.of(MODULE, CodeRules.NAME);
        for (int i = 0; i < CodeRules.LIMIT; i++) {
            service.tryAcquire(code, "code-partner");
        }
        if (service.tryAcquire(code, "code-partner")) {
            throw new IllegalStateException("the code rule admitted more than its limit");
        }
        refuseARunningCall(app.getBean(PartnerClient.class), editor);
    }

    /**
     * A call refused while {@link PartnerClient#RUNNING} others of its run hold the concurrency limit, blocked
     * for an hour by a penalty: a refusal without one lasts until a slot frees, about a second.
     */
    private static void refuseARunningCall(PartnerClient client, SysConfigEditor editor) {
        editor.setRulePenalty(RuleId.of(MODULE, "PartnerClient.running"), "3600");
        String run = "matrix-run";
        List<CompletableFuture<Void>> held = Stream.generate(() -> CompletableFuture.runAsync(() -> {
            try {
                client.running(run);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })).limit(PartnerClient.RUNNING).toList();
        Awaitility.await("both calls inside").atMost(Duration.ofSeconds(10))
                .until(() -> Occupancy.of(run).inside() == PartnerClient.RUNNING);
        try {
            client.running(run);
            throw new IllegalStateException("a third call ran beside two");
        } catch (RateLimitExceededException expected) {
            // the refusal this fixture is for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Occupancy.of(run).open();
            held.forEach(CompletableFuture::join);
        }
    }

    /**
     * A deny-list entry of every kind, with a note, and a request each refuses. The address entry names this
     * test's own client: it comes last, and the console and the actuator are never refused.
     */
    static void denyOneOfEachKind(ConfigurableApplicationContext app, HttpProbe http) {
        SysConfigEditor editor = app.getBean(SysConfigEditor.class);
        Map<DenyList.Kind, Consumer<String>> fixtures = Map.of(
                DenyList.Kind.USER, user -> refused(http, "/open/quota?usercode=" + user),
                DenyList.Kind.KEY, key -> refused(http, "/api-key", "X-Api-Key", key),
                DenyList.Kind.IP, address -> refused(http, "/open/quota"));
        for (DenyList.Kind kind : Stream.of(DenyList.Kind.values())
                .sorted((a, b) -> Boolean.compare(a == DenyList.Kind.IP, b == DenyList.Kind.IP)).toList()) {
            Consumer<String> refused = fixtures.get(kind);
            if (refused == null) {
                throw new IllegalStateException("no fixture for deny-list entries of kind " + kind);
            }
            String target = kind == DenyList.Kind.IP ? "127.0.0.1" : "denied-" + kind.word();
            editor.deny(kind, target, null, "matrix: " + kind.word());
            refused.accept(target);
        }
    }

    /** Refused (403) once the instance applied the entry: an announced write applies within a second. */
    private static void refused(HttpProbe http, String path, String... headers) {
        Awaitility.await("GET " + path + " refused by the deny list").atMost(DENY_APPLIED)
                .until(() -> http.status(path, headers) == 403);
    }

    /** {@code admitted} requests and then one refused (429). */
    private static void refuseOnce(HttpProbe http, String path, int admitted, String... headers) {
        for (int i = 0; i < admitted; i++) {
            expect(http, 200, path, headers);
        }
        expect(http, 429, path, headers);
    }

    private static void expect(HttpProbe http, int status, String path, String... headers) {
        int answered = http.status(path, headers);
        if (answered != status) {
            throw new IllegalStateException("GET " + path + " answered " + answered + ", not " + status);
        }
    }
}
