package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitRule;
import dev.ratelimit.interceptor.internal.expression.LimitExpressions;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.core.annotation.AliasFor;

/** Declarations the catalog refuses at start-up, naming the method. */
class EndpointCatalogTest {

    private final LimitExpressions expressions = LimitExpressions.create();
    private final EndpointCatalog catalog = new EndpointCatalog(new RuleNaming("shop"),
            EnumSet.allOf(Algorithm.class), expressions.keys()::get, expressions.responses()::get,
            expressions.requests()::get, ShippedDefaults.LEASE);

    @Test
    void acceptsEveryAlgorithmAndAParsableCustomKey() {
        register("good");

        assertThat(catalog.endpoints()).singleElement()
                .satisfies(endpoint -> assertThat(endpoint.limits()).extracting(LimitDefinition::algorithm)
                        .containsExactly(Algorithm.SLIDING_LOG, Algorithm.TOKEN_BUCKET));
    }

    @Test
    void aCustomKeyThatDoesNotParseNamesTheMethod() {
        assertThatThrownBy(() -> register("unparsable"))
                .hasMessageStartingWith("Invalid @RateLimit on " + Controller.class.getName() + ".unparsable: ")
                .hasMessageContaining("key expression '#headers[' does not parse");
    }

    @Test
    void aTeamsOwnAnnotationMetaAnnotatedWithRateLimitDeclaresItsLimitWithItsOverrides() {
        register("login");
        register("defaultLogin");

        assertThat(catalog.endpoints()).extracting(endpoint -> endpoint.id().rule(), endpoint -> endpoint.limits().get(0).count(),
                        endpoint -> endpoint.limits().get(0).dimension(), endpoint -> endpoint.limits().get(0).windowSeconds())
                .containsExactlyInAnyOrder(tuple("Controller.login", 5L, Dimension.IP, 60L),
                        tuple("Controller.defaultLogin", 3L, Dimension.IP, 60L));
    }

    @Test
    void aCountWhenThatDoesNotParseNamesTheMethod() {
        assertThatThrownBy(() -> register("badCountWhen"))
                .hasMessageStartingWith("Invalid @RateLimit on " + Controller.class.getName() + ".badCountWhen: ")
                .hasMessageContaining("countWhen expression '#status ==' does not parse");
    }

    @Test
    void aCountWhenIsKeptWithItsLimit() {
        register("failuresOnly");

        assertThat(catalog.endpoints()).singleElement().satisfies(endpoint -> assertThat(endpoint.limits())
                .extracting(LimitDefinition::countWhen).containsExactly("#status == 401"));
    }

    @Test
    void aPenaltyIsKeptInMillisecondsOfTheLimitsUnit() {
        register("penalized");

        assertThat(catalog.endpoints()).singleElement().satisfies(endpoint -> assertThat(endpoint.limits())
                .extracting(LimitDefinition::penalty).containsExactly(new Penalty(15 * 60_000, 240 * 60_000)));
    }

    @Test
    void aLongestBlockShorterThanTheFirstFailsTheStart() {
        assertThatThrownBy(() -> register("shrinkingPenalty"))
                .hasMessageContaining("penaltyMax 0 or at least penalty, was 10 and 5");
    }

    @Test
    void aFixedCostAboveTheCountFailsTheStart() {
        assertThatThrownBy(() -> register("tooHeavy")).hasMessageContaining("cost 6 is above count 5");
    }

    @Test
    void aCostExpressionThatDoesNotParseNamesTheMethod() {
        assertThatThrownBy(() -> register("badCost"))
                .hasMessageStartingWith("Invalid @RateLimit on " + Controller.class.getName() + ".badCost: ")
                .hasMessageContaining("expression '#request.getParameter(' does not parse");
    }

    @Test
    void aCalendarQuotaIsAFixedWindowWithoutInterval() {
        assertThatThrownBy(() -> register("quotaWithInterval")).hasMessageContaining("a quota of one DAY has no interval");
        assertThatThrownBy(() -> register("slidingQuota"))
                .hasMessageContaining("algorithm SLIDING_LOG does not fit a calendar period");
        assertThatThrownBy(() -> register("quotaInNowhere")).hasMessageContaining("zone 'Mars/Olympus' is not a time zone");
        assertThatThrownBy(() -> register("zoneWithoutQuota")).hasMessageContaining("zone is only read with a quota");
    }

    /** A concurrency limit's window is the app's lease; what no request running could mean fails the start. */
    @Test
    void aConcurrencyLimitTakesTheLeaseAsItsWindowAndNothingThatWeighsOrCountsSome() {
        register("exports");
        assertThat(catalog.endpoints()).singleElement().satisfies(endpoint -> assertThat(endpoint.limits())
                .extracting(LimitDefinition::count, LimitDefinition::windowSeconds)
                .containsExactly(tuple(2L, ShippedDefaults.LEASE.toSeconds())));

        assertThatThrownBy(() -> register("concurrentWithInterval"))
                .hasMessageContaining("a CONCURRENCY limit has no interval or unit: its window is its lease, "
                        + "ratelimit.concurrency.lease (10 s)");
        assertThatThrownBy(() -> register("weighedConcurrency")).hasMessageContaining("a CONCURRENCY limit has no cost");
        assertThatThrownBy(() -> register("concurrentFailures")).hasMessageContaining("a CONCURRENCY limit has no countWhen");
        assertThatThrownBy(() -> register("concurrentQuota"))
                .hasMessageContaining("algorithm CONCURRENCY does not fit a calendar period");
    }

    /** A cost settled after the response: the estimate is the cost; what cannot carry a debt fails the start. */
    @Test
    void aCostFromTheResponseSettlesAnEstimateOnLimitsThatCarryADebt() {
        register("settled");
        assertThat(catalog.endpoints()).singleElement().satisfies(endpoint -> assertThat(endpoint.limits())
                .extracting(LimitDefinition::cost).containsExactly(new RequestCost(100, "", "#reported")));

        assertThatThrownBy(() -> register("settledWindowSlides"))
                .hasMessageContaining("costFromResponse settles on FIXED_WINDOW and TOKEN_BUCKET, which carry a debt "
                        + "into the time after it; SLIDING_WINDOW cannot");
        assertThatThrownBy(() -> register("settledAndCountingSome"))
                .hasMessageContaining("give countWhen or costFromResponse, not both");
        assertThatThrownBy(() -> register("settledQuota"))
                .hasMessageContaining("costFromResponse does not settle a calendar quota");
        assertThatThrownBy(() -> register("settledGarbled"))
                .hasMessageStartingWith("Invalid @RateLimit on " + Controller.class.getName() + ".settledGarbled: ")
                .hasMessageContaining("costFromResponse expression '#reported +' does not parse");
    }

    @Test
    void aCustomLimitNeedsAKey() {
        assertThatThrownBy(() -> register("keyless")).hasMessageContaining("dimension CUSTOM needs key");
    }

    @Test
    void aKeyOnAnotherDimensionIsAMistake() {
        assertThatThrownBy(() -> register("strayKey")).hasMessageContaining("key is only read with dimension = CUSTOM");
    }

    @Test
    void anAlgorithmTheStoreLacksFailsTheStart() {
        EndpointCatalog fixedOnly = new EndpointCatalog(new RuleNaming("shop"), EnumSet.of(Algorithm.FIXED_WINDOW),
                expression -> { }, expression -> { }, expression -> { }, ShippedDefaults.LEASE);
        assertThatThrownBy(() -> fixedOnly.registerHandlers(handler("good")))
                .hasMessageContaining("algorithm SLIDING_LOG is not supported by this store");
    }

    @Test
    void aLimitBeyondExactArithmeticFailsTheStart() {
        assertThatThrownBy(() -> register("enormous")).hasMessageContaining("count 1000000000 per 31536000 s is too large");
    }

    /** A bean method is an endpoint of its own kind: no pattern, no HTTP method, its wait; named as a handler method. */
    @Test
    void aLimitedBeanMethodIsAnEndpointOfKindMethod() {
        catalog.registerMethods(List.of(Client.class));

        assertThat(catalog.endpoints()).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.id()).isEqualTo(RuleId.of("shop", "Client.send"));
            assertThat(endpoint.kind()).isEqualTo(Endpoint.Kind.METHOD);
            assertThat(endpoint.patterns()).isEmpty();
            assertThat(endpoint.httpMethods()).isEmpty();
            assertThat(endpoint.handler()).isEqualTo(Client.class.getName() + ".send(java.lang.String)");
            assertThat(endpoint.maxWait()).isEqualTo(Duration.ofMillis(1500));
            assertThat(endpoint.limits()).extracting(LimitDefinition::id)
                    .containsExactly(RuleId.of("shop", "Client.send#custom"), RuleId.of("shop", "Client.send#method"));
        });
        assertThat(catalog.endpoint(Client.class, method(Client.class, "unlimited"))).isNull();
    }

    @Test
    void aBeanMethodNoProxyInterceptsFailsTheStartNamingIt() {
        for (Class<?> bean : List.of(PrivateClient.class, FinalClient.class, StaticClient.class)) {
            assertThatThrownBy(() -> catalog.registerMethods(List.of(bean)))
                    .hasMessageStartingWith("Invalid @RateLimit on " + bean.getName() + ".send: the method is ")
                    .hasMessageContaining("no Spring proxy intercepts such a method");
        }
    }

    @Test
    void aLimitOnTheClassOfABeanThatIsNoControllerFailsTheStart() {
        assertThatThrownBy(() -> catalog.registerMethods(List.of(ClassLimitedClient.class)))
                .hasMessage("Invalid @RateLimit on " + ClassLimitedClient.class.getName() + ": on a class it limits "
                        + "the handler methods of a controller, and this bean is none; put it on the methods to limit");
    }

    @Test
    void aWaitIsForCallsOnlyAndADurationThatDoesNotReadFailsTheStart() {
        assertThatThrownBy(() -> register("waiting"))
                .hasMessageStartingWith("Invalid @RateLimit on " + Controller.class.getName() + ".waiting: ")
                .hasMessageContaining("maxWait is for methods of beans that are not controllers");
        assertThatThrownBy(() -> catalog.registerMethods(List.of(BadWaitClient.class)))
                .hasMessage("Invalid @RateLimit on " + BadWaitClient.class.getName()
                        + ".send: maxWait 'a while' is not a duration such as 500ms or 2s");
    }

    /** A rule defined in code counts the identity each call names: a CUSTOM one needs no key; its name is its own. */
    @Test
    void aRuleDefinedInCodeIsCheckedAsAnAnnotationAndOwnsItsName() {
        RateLimit partners = RateLimitRule.named("Client.send").count(5).build().annotation();
        Endpoint defined = catalog.registerRule("RateLimitRule bean 'partners'", partners);

        assertThat(defined.kind()).isEqualTo(Endpoint.Kind.CODE);
        assertThat(defined.id()).isEqualTo(RuleId.of("shop", "Client.send"));
        assertThat(defined.limits()).singleElement().extracting(LimitDefinition::dimension).isEqualTo(Dimension.CUSTOM);
        catalog.registerMethods(List.of(Client.class));
        assertThat(catalog.endpoint(Client.class, method(Client.class, "send")).id().rule())
                .as("a method deriving a name a rule defined in code has").isEqualTo("Client.send~2");
        assertThatThrownBy(() -> catalog.registerRule("RateLimitRule bean 'again'", partners))
                .hasMessage("Invalid @RateLimit on RateLimitRule bean 'again': the rule name 'Client.send' is taken by "
                        + "RateLimitRule bean 'partners'");
        assertThatThrownBy(() -> catalog.registerRule("RateLimitRule bean 'never'",
                RateLimitRule.named("Never").count(5).cost(6).build().annotation()))
                .hasMessage("Invalid @RateLimit on RateLimitRule bean 'never': cost 6 is above count 5: no request "
                        + "could ever pass");
        assertThatThrownBy(() -> catalog.registerRule("RateLimitRule bean 'exports'",
                RateLimitRule.named("Exports").count(2).algorithm(Algorithm.CONCURRENCY).build().annotation()))
                .hasMessageStartingWith("Invalid @RateLimit on RateLimitRule bean 'exports': a rule defined in code "
                        + "cannot limit calls running at once");
    }

    private static java.lang.reflect.Method method(Class<?> type, String name) {
        return java.util.Arrays.stream(type.getMethods()).filter(method -> method.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    private void register(String method) {
        catalog.registerHandlers(handler(method));
    }

    private static List<HttpHandler> handler(String method) {
        try {
            return List.of(new HttpHandler(Controller.class, Controller.class.getMethod(method), List.of("/" + method),
                    Set.of()));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    public static class Client {

        @RateLimit(count = 5, dimension = Dimension.CUSTOM, key = "#p0", maxWait = "1500ms")
        @RateLimit(count = 50, dimension = Dimension.METHOD, maxWait = "1s")
        public void send(String partner) {
        }

        public void unlimited() {
        }
    }

    public static class PrivateClient {

        @RateLimit(count = 5)
        private void send() {
        }
    }

    public static class FinalClient {

        @RateLimit(count = 5)
        public final void send() {
        }
    }

    public static class StaticClient {

        @RateLimit(count = 5)
        public static void send() {
        }
    }

    @RateLimit(count = 5)
    public static class ClassLimitedClient {

        public void send() {
        }
    }

    public static class BadWaitClient {

        @RateLimit(count = 5, maxWait = "a while")
        public void send() {
        }
    }

    /** A team's own limit: three a minute per address unless it says otherwise. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @RateLimit(count = 3, interval = 60, dimension = Dimension.IP)
    @interface LoginLimit {

        @AliasFor(annotation = RateLimit.class)
        long count() default 3;
    }

    static class Controller {

        @LoginLimit(count = 5)
        public void login() {
        }

        @LoginLimit
        public void defaultLogin() {
        }

        @RateLimit(count = 5, maxWait = "1s")
        public void waiting() {
        }

        @RateLimit(count = 10_000, interval = 60, cost = 100, costFromResponse = "#reported")
        public void settled() {
        }

        @RateLimit(count = 10_000, interval = 60, algorithm = Algorithm.SLIDING_WINDOW, costFromResponse = "#reported")
        public void settledWindowSlides() {
        }

        @RateLimit(count = 10_000, interval = 60, countWhen = "#status == 200", costFromResponse = "#reported")
        public void settledAndCountingSome() {
        }

        @RateLimit(count = 10_000, quota = QuotaPeriod.DAY, costFromResponse = "#reported")
        public void settledQuota() {
        }

        @RateLimit(count = 10_000, interval = 60, costFromResponse = "#reported +")
        public void settledGarbled() {
        }

        @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY, penalty = 60)
        public void exports() {
        }

        @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY, interval = 30)
        public void concurrentWithInterval() {
        }

        @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY, costExpression = "#request.getParameter('n')")
        public void weighedConcurrency() {
        }

        @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY, countWhen = "#status == 200")
        public void concurrentFailures() {
        }

        @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY, quota = QuotaPeriod.DAY)
        public void concurrentQuota() {
        }

        @RateLimit(count = 5, interval = 1, unit = TimeUnit.MINUTES, penalty = 15, penaltyMax = 240)
        public void penalized() {
        }

        @RateLimit(count = 5, penalty = 10, penaltyMax = 5)
        public void shrinkingPenalty() {
        }

        @RateLimit(count = 5, quota = QuotaPeriod.DAY, interval = 10)
        public void quotaWithInterval() {
        }

        @RateLimit(count = 5, quota = QuotaPeriod.DAY, algorithm = Algorithm.SLIDING_LOG)
        public void slidingQuota() {
        }

        @RateLimit(count = 5, quota = QuotaPeriod.MONTH, zone = "Mars/Olympus")
        public void quotaInNowhere() {
        }

        @RateLimit(count = 5, zone = "Europe/Paris")
        public void zoneWithoutQuota() {
        }

        @RateLimit(count = 5, cost = 6)
        public void tooHeavy() {
        }

        @RateLimit(count = 5, costExpression = "#request.getParameter(")
        public void badCost() {
        }

        @RateLimit(count = 5, countWhen = "#status ==")
        public void badCountWhen() {
        }

        @RateLimit(count = 5, countWhen = " #status == 401 ")
        public void failuresOnly() {
        }

        @RateLimit(count = 5, algorithm = Algorithm.SLIDING_LOG, dimension = Dimension.CUSTOM,
                key = "#pathVariables['tenant'] + ':' + #headers['X-Plan']")
        @RateLimit(count = 5, algorithm = Algorithm.TOKEN_BUCKET, dimension = Dimension.IP)
        public void good() {
        }

        @RateLimit(dimension = Dimension.CUSTOM, key = "#headers[")
        public void unparsable() {
        }

        @RateLimit(dimension = Dimension.CUSTOM)
        public void keyless() {
        }

        @RateLimit(dimension = Dimension.IP, key = "#headers['X-Plan']")
        public void strayKey() {
        }

        @RateLimit(count = 1_000_000_000, interval = 365, unit = java.util.concurrent.TimeUnit.DAYS)
        public void enormous() {
        }
    }
}
