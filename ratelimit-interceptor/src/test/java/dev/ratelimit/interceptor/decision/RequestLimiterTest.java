package dev.ratelimit.interceptor.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.fixture.RecordingInterceptionLog;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.HttpHandler;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import dev.ratelimit.interceptor.testsupport.TestRequest;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The decision core without HTTP: made-up requests to endpoints of a real catalog, counted by the
 * in-process store, with the rules in force read from a real config hash. Limits in force, then the
 * decisions, then the most restrictive denial; a shadow limit only watches; a whitelisted client, a
 * client a limit cannot count, a request no wait would admit, and the master switch; and how a request
 * ends: its estimate settled as its completion says, its lease released whatever it says.
 */
class RequestLimiterTest {

    private static final RuleId USER = RuleId.of("shop", "Orders.create#user");
    private static final RuleId IP = RuleId.of("shop", "Orders.create#ip");
    private static final RuleId TOKENS = RuleId.of("shop", "tokens");

    private static RedisServerProcess redis;
    private static SysConfigEditor editor;
    private static RuleSnapshotHolder snapshots;
    private static Endpoint create;
    private static Endpoint open;
    private static Endpoint tenant;
    private static Endpoint generate;
    private static HeldLeases leases;
    private static RequestLimiter limiter;
    private static final RecordingInterceptionLog log = new RecordingInterceptionLog(100);
    private static final List<String> outcomes = new CopyOnWriteArrayList<>();
    private static final TestObservationRegistry observations = TestObservationRegistry.create();

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServerProcess.start();
        SysConfigRepository repository = new SysConfigRepository(redis.connection().backgroundWork(), new RedisKeys("ratelimit"));
        snapshots = new RuleSnapshotHolder(repository, null, List::of, Duration.ofSeconds(30), Duration.ofSeconds(1),
                Duration.ofSeconds(3), Clock.systemUTC());
        EndpointCatalog endpoints = new EndpointCatalog(new RuleNaming("shop"), EnumSet.allOf(Algorithm.class),
                key -> { }, countWhen -> { }, cost -> { }, ShippedDefaults.LEASE);
        endpoints.registerHandlers(List.of(
                new HttpHandler(Orders.class, Orders.class.getMethod("create"), List.of("/orders"), Set.of()),
                new HttpHandler(Orders.class, Orders.class.getMethod("generate"), List.of("/generate"), Set.of())));
        endpoints.registerHandlers(List.of(
                new HttpHandler(Orders.class, Orders.class.getMethod("open"), List.of("/open"), Set.of()),
                new HttpHandler(Orders.class, Orders.class.getMethod("tenant"), List.of("/tenant"), Set.of())));
        create = endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().equals("Orders.create"))
                .findFirst().orElseThrow();
        generate = endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().equals("Orders.generate"))
                .findFirst().orElseThrow();
        open = endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().equals("Orders.open"))
                .findFirst().orElseThrow();
        tenant = endpoints.endpoints().stream().filter(endpoint -> endpoint.id().rule().equals("Orders.tenant"))
                .findFirst().orElseThrow();
        // As an app's editor: the rules its catalog declares are declared, merged or not.
        editor = new SysConfigEditor(repository, Clock.systemUTC(), endpoints::declares, snapshots::refresh);
        leases = new HeldLeases(ShippedDefaults.LEASE_MAX_HOLD);
        limiter = new RequestLimiter(new RuleCatalog(endpoints, snapshots), new RedisKeys("ratelimit"),
                new MemoryRateLimitStore(Clock.systemUTC(), 1000), log, new RecordingMetrics(), Whitelist.EMPTY,
                Clock.systemUTC(), ZoneOffset.UTC, leases, observations, null, Set.of());
    }

    @AfterAll
    static void stop() {
        snapshots.destroy();
        redis.close();
    }

    /** What the operator set in the last test goes; the counters start afresh with another user each test. */
    @BeforeEach
    void freshConfig() {
        redis.emptyAll();
        snapshots.refresh();
        outcomes.clear();
        observations.clear();
    }

    @Test
    void theMostRestrictiveDenialDecidesAndEveryLimitIsMetered() {
        List<Verdict> verdicts = IntStream.range(0, 3)
                .mapToObj(i -> limiter.decide(create, new TestRequest("ann", "10.0.0.1", 1))).toList();

        assertThat(verdicts).extracting(Verdict::kind).containsExactly(Verdict.Kind.ADMIT, Verdict.Kind.ADMIT,
                Verdict.Kind.REJECT);
        assertThat(verdicts.get(2).reportedLimit().id()).as("2 per user, the address's 3 not used up").isEqualTo(USER);
        assertThat(outcomes).contains(USER + ":" + Outcome.BLOCKED, IP + ":" + Outcome.ALLOWED);
        assertThat(log.recorded()).anySatisfy(row -> assertThat(row.rule()).isEqualTo(USER));
    }

    @Test
    void aLimitInShadowModeWouldDenyButLetsThroughAndIsLoggedAsSuch() {
        editor.setRuleMode(USER, RuleMode.SHADOW);
        snapshots.refresh();

        List<Verdict.Kind> kinds = IntStream.range(0, 3)
                .mapToObj(i -> limiter.decide(create, new TestRequest("bo", "10.0.0.2", 1)).kind()).toList();

        assertThat(kinds).containsExactly(Verdict.Kind.ADMIT, Verdict.Kind.ADMIT, Verdict.Kind.ADMIT);
        assertThat(outcomes).contains(USER + ":" + Outcome.SHADOW_BLOCKED);
        assertThat(log.recorded()).anySatisfy(row -> {
            assertThat(row.rule()).isEqualTo(USER);
            assertThat(row.shadow()).isTrue();
        });
    }

    @Test
    void aWhitelistedClientIsNotCountedAndALimitWithoutItsIdentityDoesNotApply() {
        editor.setWhitelistIps("10.9.0.0/16");
        snapshots.refresh();

        assertThat(limiter.decide(create, new TestRequest("cy", "10.9.1.1", 1)).kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(outcomes).containsOnly(USER + ":" + Outcome.SKIPPED, IP + ":" + Outcome.SKIPPED);

        outcomes.clear();
        Verdict anonymous = limiter.decide(create, new TestRequest(null, "10.0.0.3", 1));
        assertThat(anonymous.limits()).extracting(LimitDefinition::id).containsExactly(IP);
        assertThat(outcomes).contains(USER + ":" + Outcome.SKIPPED);
    }

    @Test
    void aRequestNoWaitWouldAdmitTakesNothing() {
        assertThat(limiter.decide(create, new TestRequest("di", "10.0.0.4", 3)).kind()).isEqualTo(Verdict.Kind.TOO_COSTLY);
        assertThat(IntStream.range(0, 2).mapToObj(i -> limiter.decide(create, new TestRequest("di", "10.0.0.4", 1)).kind()))
                .as("the heavy request took nothing").containsOnly(Verdict.Kind.ADMIT);
    }

    /**
     * A client on the deny list is refused before any limit counts it: on an endpoint without a limit too,
     * whitelisted or not, in shadow mode too; metered and logged as the deny list's; and once removed it has
     * its whole limit.
     */
    @Test
    void aDeniedClientIsRefusedBeforeAnythingIsCountedAndTheDenyListBeatsTheWhitelistAndShadowMode() {
        editor.deny(DenyList.Kind.IP, "10.66.0.0/16", null, "");
        editor.deny(DenyList.Kind.USER, "hal", null, "");
        editor.setWhitelistIps("10.66.1.1");
        editor.setGlobalMode(RuleMode.SHADOW);
        snapshots.refresh();

        Verdict denied = limiter.decide(create, new TestRequest("gil", "10.66.1.1", 1));
        assertThat(denied.kind()).isEqualTo(Verdict.Kind.DENY);
        assertThat(denied.denial().target()).isEqualTo("10.66.0.0/16");
        assertThat(denied.limits()).isEmpty();
        assertThat(limiter.decide(open, new TestRequest("gil", "10.66.1.1", 1)).kind()).as("no limit").isEqualTo(Verdict.Kind.DENY);
        assertThat(IntStream.range(0, 5).mapToObj(i -> limiter.decide(create, new TestRequest("hal", "10.0.0.9", 1)).kind()))
                .containsOnly(Verdict.Kind.DENY);
        assertThat(outcomes).containsOnly("shop.deny.ip:" + Outcome.DENIED, "shop.deny.user:" + Outcome.DENIED)
                .hasSize(7);
        assertThat(log.recorded()).anySatisfy(row -> assertThat(row).isEqualTo(new Interception(row.createdAt(),
                RuleId.of("shop", "deny.user"), "hal", "10.0.0.9", "POST", "/orders", Dimension.USER, 0, 0, false,
                Interception.Reason.DENY)));

        editor.undeny(DenyList.Kind.USER, "hal");
        editor.setGlobalMode(RuleMode.ENFORCE);
        snapshots.refresh();

        assertThat(IntStream.range(0, 3).mapToObj(i -> limiter.decide(create, new TestRequest("hal", "10.0.0.9", 1)).kind()))
                .as("nothing was counted while denied").containsExactly(Verdict.Kind.ADMIT, Verdict.Kind.ADMIT,
                        Verdict.Kind.REJECT);
    }

    /** The user the server established is denied whatever user code the client sends; a key on CUSTOM limits. */
    @Test
    void aDeniedUserCannotEscapeWithAnotherUserCodeAndAKeyIsDeniedOnCustomLimits() {
        editor.deny(DenyList.Kind.USER, "ivy", null, "");
        editor.deny(DenyList.Kind.KEY, "tenant-9", Instant.now().plusSeconds(3600), "");
        snapshots.refresh();

        assertThat(limiter.decide(create, new TestRequest("not-ivy", "ivy", "10.0.0.10", null, 1)).kind())
                .isEqualTo(Verdict.Kind.DENY);
        Verdict keyDenied = limiter.decide(tenant, new TestRequest(null, null, "10.0.0.10", "tenant-9", 1));
        assertThat(keyDenied.kind()).isEqualTo(Verdict.Kind.DENY);
        assertThat(keyDenied.retryAfter()).isBetween(Duration.ofSeconds(3590), Duration.ofSeconds(3600));
        assertThat(limiter.decide(tenant, new TestRequest(null, null, "10.0.0.10", "tenant-8", 1)).kind())
                .isEqualTo(Verdict.Kind.ADMIT);
        assertThat(limiter.decide(create, new TestRequest("tenant-9", "10.0.0.10", 1)).kind())
                .as("a key is not a user").isEqualTo(Verdict.Kind.ADMIT);
    }

    @Test
    void theMasterSwitchOffLiftsTheDenyList() {
        editor.deny(DenyList.Kind.USER, "jo", null, "");
        editor.setGlobalSwitch(false);
        snapshots.refresh();

        assertThat(limiter.decide(create, new TestRequest("jo", "10.0.0.11", 1)).kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(outcomes).isEmpty();
    }

    @Test
    void theMasterSwitchOffLetsEverythingThroughUncounted() {
        editor.setGlobalSwitch(false);
        snapshots.refresh();

        assertThat(IntStream.range(0, 5).mapToObj(i -> limiter.decide(create, new TestRequest("ed", "10.0.0.5", 1)).kind()))
                .containsOnly(Verdict.Kind.PASS);
        assertThat(outcomes).isEmpty();
    }

    /**
     * A request ends as its completion says: its estimate settled at what the completion says it used (kept
     * when it cannot tell), its lease released whatever it says; a request another limit refused never ran,
     * and gives back its estimate at once.
     */
    @Test
    void eachDecisionIsAnObservationWithItsRuleAndOutcomeAndARefusalIsAnEventOnIt() {
        limiter.decide(create, new TestRequest("kai", "10.0.0.7", 1));
        limiter.decide(create, new TestRequest("kai", "10.0.0.7", 1));

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo("ratelimit.verdict", 2)
                .forAllObservationsWithNameEqualTo("ratelimit.verdict", decision -> decision
                        .hasLowCardinalityKeyValue("ratelimit.module", "shop")
                        .hasLowCardinalityKeyValue("ratelimit.rule", USER.rule())
                        .hasLowCardinalityKeyValue("ratelimit.store", "memory")
                        .doesNotHaveHighCardinalityKeyValueWithKey("ratelimit.failure")
                        .doesNotHaveError());
        observations.clear();

        limiter.decide(create, new TestRequest("kai", "10.0.0.7", 1));

        assertThat(observations).hasSingleObservationThat().hasNameEqualTo("ratelimit.verdict")
                .hasContextualNameEqualTo("ratelimit " + USER.rule())
                .hasLowCardinalityKeyValue("ratelimit.outcome", "blocked")
                .hasEvent("ratelimit.refused").hasBeenStopped();
        assertThat(observations).hasHandledContextsThatSatisfy(contexts -> assertThat(contexts)
                .allSatisfy(context -> assertThat(context.getAllKeyValues().stream().map(Object::toString))
                        .as("never the identity").noneMatch(keyValue -> keyValue.contains("kai")
                                || keyValue.contains("10.0.0.7"))));
    }

    @Test
    void anAdmittedDecisionHasNoRefusalAndAnEndpointWithoutALimitIsNotObserved() {
        limiter.decide(open, new TestRequest("lee", "10.0.0.8", 1));
        assertThat(observations).doesNotHaveAnyObservation();

        limiter.decide(create, new TestRequest("lee", "10.0.0.8", 1));
        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("ratelimit.outcome", "allowed")
                .doesNotHaveEvent("ratelimit.refused").hasBeenStopped();
    }

    @Test
    void aDenialIsObservedUnderTheDenyListsRuleAndAWhitelistedClientAsSkipped() {
        editor.deny(DenyList.Kind.IP, "10.67.0.0/16", null, "");
        editor.setWhitelistIps("10.68.0.0/16");
        snapshots.refresh();

        limiter.decide(open, new TestRequest("mo", "10.67.1.1", 1));
        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("ratelimit.outcome", "denied")
                .hasLowCardinalityKeyValue("ratelimit.rule", "deny.ip").hasEvent("ratelimit.refused");
        observations.clear();

        assertThat(limiter.decide(open, new TestRequest("mo", "10.69.1.1", 1)).kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(observations).as("a client the list does not deny, on an endpoint without a limit")
                .doesNotHaveAnyObservation();

        limiter.decide(create, new TestRequest("mo", "10.68.1.1", 1));
        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("ratelimit.outcome", "skipped")
                .doesNotHaveEvent("ratelimit.refused");
    }

    @Test
    void aRequestEndsAsItsCompletionSays() {
        Verdict first = limiter.decide(generate, new TestRequest("fay", "10.0.0.6", 1));
        assertThat(first.reservations()).extracting(Reservation::kind)
                .containsExactlyInAnyOrder(Reservation.Kind.ESTIMATE, Reservation.Kind.LEASE);
        assertThat(leases.size()).isEqualTo(1);
        Verdict refused = limiter.decide(generate, new TestRequest("fay", "10.0.0.6", 1));
        assertThat(refused.kind()).as("one at once").isEqualTo(Verdict.Kind.REJECT);
        assertThat(tokensLeft("fay")).as("the refused request's estimate given back").isEqualTo(9);

        limiter.complete(first.reservations(), completion(7L));
        assertThat(leases.size()).isZero();
        assertThat(tokensLeft("fay")).as("7 used").isEqualTo(3);

        Verdict unsaid = limiter.decide(generate, new TestRequest("fay", "10.0.0.6", 1));
        limiter.complete(unsaid.reservations(), completion(null));
        assertThat(tokensLeft("fay")).as("nothing said: the estimate kept").isEqualTo(2);
        Verdict indebted = limiter.decide(generate, new TestRequest("fay", "10.0.0.6", 1));
        limiter.complete(indebted.reservations(), completion(5L));
        Verdict inDebt = limiter.decide(generate, new TestRequest("fay", "10.0.0.6", 1));
        assertThat(inDebt.kind()).as("3 past the limit").isEqualTo(Verdict.Kind.REJECT);
        assertThat(inDebt.reportedDecision().retryAfterMillis()).as("a window later").isBetween(59_000L, 60_000L);
    }

    private static long tokensLeft(String user) {
        return ((StoreResult.Decided) limiter.peek(generate.limits().stream()
                .filter(limit -> limit.id().equals(TOKENS)).findFirst().orElseThrow(), user)).decisions().get(0)
                .remaining();
    }

    /** A completion that says the request used {@code units}, or cannot tell. */
    private static Completion completion(Long units) {
        return new Completion() {
            @Override
            public boolean counts(String countWhen) {
                return true;
            }

            @Override
            public Long cost(String costFromResponse) {
                return units;
            }
        };
    }

    static class Orders {

        @RateLimit(count = 2, interval = 60)
        @RateLimit(count = 3, interval = 60, dimension = Dimension.IP)
        public void create() {
        }

        public void open() {
        }

        @RateLimit(count = 5, interval = 60, dimension = Dimension.CUSTOM, key = "#request.getParameter('tenant')")
        public void tenant() {
        }

        @RateLimit(rule = "tokens", count = 10, interval = 60, costFromResponse = "#reported")
        @RateLimit(rule = "running", count = 1, algorithm = Algorithm.CONCURRENCY)
        public void generate() {
        }
    }

    private static final class RecordingMetrics implements RateLimitMetrics {

        @Override
        public void outcome(RuleId rule, Outcome outcome) {
            outcomes.add(rule + ":" + outcome);
        }

        @Override
        public void decided(long nanos) {
        }
    }
}
