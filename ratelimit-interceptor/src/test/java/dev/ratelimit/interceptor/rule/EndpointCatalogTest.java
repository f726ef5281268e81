package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.identity.CustomKeyExpressions;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.testsupport.Stores;
import dev.ratelimit.interceptor.web.ResponseExpressions;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;

/** Declarations the catalog refuses at start-up, naming the method. */
class EndpointCatalogTest {

    private final EndpointCatalog catalog = new EndpointCatalog(new RuleNaming("shop"),
            EnumSet.allOf(Algorithm.class), new CustomKeyExpressions(null)::parse, new ResponseExpressions()::parse,
            new RequestExpressions(null)::parse, Stores.DEFAULTS.concurrency().lease());

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
                .containsExactly(tuple(2L, Stores.DEFAULTS.concurrency().lease().toSeconds())));

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
                expression -> { }, expression -> { }, expression -> { }, Stores.DEFAULTS.concurrency().lease());
        assertThatThrownBy(() -> fixedOnly.register(handler("good")))
                .hasMessageContaining("algorithm SLIDING_LOG is not supported by this store");
    }

    @Test
    void aLimitBeyondExactArithmeticFailsTheStart() {
        assertThatThrownBy(() -> register("enormous")).hasMessageContaining("count 1000000000 per 31536000 s is too large");
    }

    private void register(String method) {
        catalog.register(handler(method));
    }

    private static Map<RequestMappingInfo, HandlerMethod> handler(String method) {
        try {
            return Map.of(RequestMappingInfo.paths("/" + method).build(),
                    new HandlerMethod(new Controller(), Controller.class.getMethod(method)));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    static class Controller {

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
