package dev.ratelimit.interceptor.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitRule;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.ConfigHash;
import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.fixture.RecordingInterceptionLog;
import dev.ratelimit.interceptor.internal.expression.LimitExpressions;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.identity.CustomKeyExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.RequestUserResolver;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import dev.ratelimit.interceptor.web.ServletCurrentClient;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * The call path without an application: a bean proxied with the limiter's advisor, its calls decided by
 * the in-process store on a clock the test moves; a waiting call's pauses move the clock as far as the
 * refusal said. What each attempt meters and logs, how a call waits and when it throws, what SpEL on the
 * call reads, and a rule defined in code.
 */
class CallLimiterTest {

    private static final String OUTBOUND = Outbound.class.getName();

    private final ManualClock clock = new ManualClock(1_000_000);
    private final RecordingInterceptionLog log = new RecordingInterceptionLog(100);
    private final List<String> outcomes = new ArrayList<>();
    private final List<Duration> pauses = new ArrayList<>();
    private final LimitExpressions expressions = LimitExpressions.create();
    private EndpointCatalog catalog;
    private CallLimiter calls;
    private Outbound outbound;

    @BeforeEach
    void start() {
        catalog = new EndpointCatalog(new RuleNaming("shop"), EnumSet.allOf(Algorithm.class),
                expressions.keys()::get, expressions.responses()::get, expressions.requests()::get,
                ShippedDefaults.LEASE);
        catalog.registerMethods(List.of(Outbound.class));
        RuleCatalog rules = new RuleCatalog(catalog, new RuleSnapshotHolder(ConfigHash.NONE, null, List::of,
                Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(1), clock));
        RequestLimiter limiter = new RequestLimiter(rules, new RedisKeys("ratelimit"),
                new MemoryRateLimitStore(clock, 1000), log, new Outcomes(), Whitelist.EMPTY, clock, ZoneOffset.UTC,
                new HeldLeases(ShippedDefaults.LEASE_MAX_HOLD), ObservationRegistry.NOOP, null, Set.of());
        CurrentClient clients = new ServletCurrentClient(new DimensionKeys(
                new RequestUserResolver("usercode", "usercode", true), new TrustedProxyResolver(List.of()), 64,
                new CustomKeyExpressions(null, expressions.keys())));
        calls = new CallLimiter(rules, limiter, clients, wait -> {
            pauses.add(wait);
            clock.advance(wait.toMillis());
        });
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("catalog", catalog);
        beans.addBean("calls", calls);
        beans.addBean("clients", clients);
        ProxyFactory proxy = new ProxyFactory(new Outbound());
        proxy.setProxyTargetClass(true);
        proxy.addAdvisor(new MethodLimitAdvisor(beans.getBeanProvider(EndpointCatalog.class),
                beans.getBeanProvider(CallLimiter.class), beans.getBeanProvider(CurrentClient.class), beans));
        outbound = (Outbound) proxy.getProxy();
    }

    /**
     * 2 per second, waiting up to 2.5 s: seven calls in a row all run, the third, fifth and seventh each after
     * waiting exactly until the window ends; each refused attempt is metered and logged as a {@code CALL} of
     * the Java method, as a request's would be.
     */
    @Test
    void aWaitingCallRunsWhenTheWindowEndsEachAttemptADecision() {
        for (int i = 0; i < 7; i++) {
            assertThat(outbound.send("acme", "hello " + i)).isEqualTo("acme: hello " + i);
        }

        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(outcomes).filteredOn(outcome -> outcome.endsWith(":ALLOWED")).hasSize(7);
        assertThat(outcomes).filteredOn(outcome -> outcome.endsWith(":BLOCKED")).hasSize(3);
        assertThat(log.recorded()).hasSize(3).allSatisfy(row -> {
            assertThat(row.rule()).isEqualTo(RuleId.of("shop", "Outbound.send"));
            assertThat(row.httpMethod()).isEqualTo("CALL");
            assertThat(row.uri()).isEqualTo(OUTBOUND + ".send(java.lang.String,java.lang.String)");
            assertThat(row.dimension()).isEqualTo(Dimension.CUSTOM);
            assertThat(row.limitCount()).isEqualTo(2);
            assertThat(row.windowSeconds()).isEqualTo(1);
            assertThat(row.user()).as("no request: no user").isNull();
        });
    }

    /** A call told to wait longer than its maxWait, or one without a maxWait, throws at once, with the wait and the rule. */
    @Test
    void aCallThatCannotWaitLongEnoughThrowsAtOnceWithTheWait() {
        outbound.now("acme");
        outbound.now("acme");
        assertThatThrownBy(() -> outbound.now("acme")).isInstanceOfSatisfying(RateLimitExceededException.class,
                refused -> {
                    assertThat(refused.rule()).isEqualTo(RuleId.of("shop", "Outbound.now"));
                    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
                });
        outbound.hourly("acme");
        assertThatThrownBy(() -> outbound.hourly("acme")).isInstanceOfSatisfying(RateLimitExceededException.class,
                refused -> assertThat(refused.retryAfter()).isEqualTo(Duration.ofHours(1)));
        assertThat(outbound.now("globex")).as("another partner, another counter").isEqualTo("globex");
        assertThat(pauses).isEmpty();
    }

    /** {@code countWhen} reads how the call ended: calls that threw give their unit back, the others keep it. */
    @Test
    void countWhenReadsTheCallsResultAndException() {
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> outbound.fetch("acme", true)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(outbound.fetch("acme", false)).isEqualTo("rates of acme");
        assertThat(outbound.fetch("acme", false)).isEqualTo("rates of acme");

        assertThatThrownBy(() -> outbound.fetch("acme", false)).isInstanceOf(RateLimitExceededException.class);
    }

    /** A cost expression weighs the call's arguments; a call heavier than the whole limit could never run. */
    @Test
    void aCostExpressionWeighsTheArguments() {
        assertThat(outbound.upload(List.of("a", "b", "c"))).isEqualTo(3);
        assertThatThrownBy(() -> outbound.upload(List.of("a", "b", "c"))).isInstanceOf(RateLimitExceededException.class);
        assertThat(outbound.upload(List.of("a", "b"))).as("a lighter call fits in what is left").isEqualTo(2);
        assertThatThrownBy(() -> outbound.upload(List.of("a", "b", "c", "d", "e", "f")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The call weighs 6, more than the 5 that rule shop.Outbound.upload allows per 60 s: no wait "
                        + "would admit it");
    }

    /**
     * A rule defined in code is exactly the annotation its builder describes (beside the key, which a rule
     * counted under the identity each call names has none of), and counts calls from code: 3, then refused;
     * waiting up to 2 s for a window of a minute throws at once. An unknown rule is a mistake, said so.
     */
    @Test
    void aRuleDefinedInCodeIsTheAnnotationItsBuilderDescribesAndCountsCalls() {
        RateLimitRule rule = RateLimitRule.named("Partners").count(3).interval(1, TimeUnit.MINUTES)
                .algorithm(Algorithm.SLIDING_LOG).penalty(5, 10).build();
        LimitDefinition fromCode = catalog.registerRule("RateLimitRule bean 'partners'", rule.annotation()).limits().get(0);
        EndpointCatalog another = new EndpointCatalog(new RuleNaming("shop"), EnumSet.allOf(Algorithm.class),
                expression -> { }, expression -> { }, expression -> { }, ShippedDefaults.LEASE);
        another.registerMethods(List.of(Annotated.class));
        LimitDefinition annotated = another.endpoints().get(0).limits().get(0);
        assertThat(LimitDescription.of(fromCode)).isEqualTo(LimitDescription.of(annotated));
        assertThat(fromCode.id()).isEqualTo(annotated.id()).isEqualTo(RuleId.of("shop", "Partners"));

        RuleId id = RuleId.of("shop", "Partners");
        assertThat(List.of(calls.tryAcquire(id, "acme"), calls.tryAcquire(id, "acme"), calls.tryAcquire(id, "acme"),
                calls.tryAcquire(id, "acme"))).containsExactly(true, true, true, false);
        assertThatThrownBy(() -> calls.acquire(id, "acme", Duration.ofSeconds(2)))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        refused -> assertThat(refused.retryAfter()).isGreaterThan(Duration.ofSeconds(2)));
        assertThat(calls.tryAcquire(id, "globex")).isTrue();
        assertThat(pauses).isEmpty();
        assertThat(log.recorded()).extracting(Interception::uri).containsOnly("RateLimitRule bean 'partners'");
        assertThatThrownBy(() -> calls.tryAcquire(RuleId.of("shop", "Nope"), "acme"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No rate limit rule shop.Nope: declare it with @RateLimit or define it with a RateLimitRule bean");
    }

    public static class Outbound {

        @RateLimit(count = 2, interval = 1, dimension = Dimension.CUSTOM, key = "#partner", maxWait = "2500ms")
        public String send(String partner, String text) {
            return partner + ": " + text;
        }

        @RateLimit(count = 2, interval = 1, dimension = Dimension.CUSTOM, key = "#p0")
        public String now(String partner) {
            return partner;
        }

        @RateLimit(count = 1, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.CUSTOM, key = "#args[0]",
                maxWait = "2500ms")
        public String hourly(String partner) {
            return partner;
        }

        @RateLimit(count = 2, interval = 60, dimension = Dimension.CUSTOM, key = "#partner",
                countWhen = "#exception == null and #result.startsWith('rates')")
        public String fetch(String partner, boolean fail) {
            if (fail) {
                throw new IllegalStateException("the partner is down");
            }
            return "rates of " + partner;
        }

        @RateLimit(count = 5, interval = 60, dimension = Dimension.METHOD, costExpression = "#batch.size()")
        public int upload(List<String> batch) {
            return batch.size();
        }
    }

    /** The annotation a rule defined in code stands for, on a method. */
    public static class Annotated {

        @RateLimit(rule = "Partners", count = 3, interval = 1, unit = TimeUnit.MINUTES, algorithm = Algorithm.SLIDING_LOG,
                penalty = 5, penaltyMax = 10, dimension = Dimension.CUSTOM, key = "#p0")
        public void partners(String partner) {
        }
    }

    private final class Outcomes implements RateLimitMetrics {

        @Override
        public void outcome(RuleId rule, Outcome outcome) {
            outcomes.add(rule + ":" + outcome);
        }

        @Override
        public void decided(long nanos) {
        }
    }
}
