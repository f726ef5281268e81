package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.fixture.Occupancy;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.fixture.CallingController;
import dev.ratelimit.interceptor.fixture.CodeRules;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PartnerClient;
import dev.ratelimit.interceptor.method.MethodLimitAdvisor;
import dev.ratelimit.interceptor.rule.RuleId;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.aop.framework.Advised;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Limits outside HTTP, run by each test class that starts instances on a store (one Redis, a Redis Cluster,
 * the in-process store): calls of a limited bean method ({@link PartnerClient}) and calls that code counts
 * through {@link RateLimitService} against a rule defined in code ({@link CodeRules}), made by many threads
 * over the instances, are admitted exactly as the limits say, the same counters as requests.
 */
public interface CallLimitsContract {

    /** How long a call's end may take to reach the store, and a test to wait for a burst. */
    Duration SETTLES = Duration.ofSeconds(30);

    /** The running instances of the fixture app, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    /**
     * 64 threads over the instances, two calls each, of a bean method limited to 50 per partner: exactly 50
     * run, and the instances' meters count every call's outcome, as they count requests'.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    default void sixtyFourThreadsCallingABeanMethodGetExactlyTheLimit(Algorithm algorithm) throws Exception {
        List<PartnerClient> clients = beans(PartnerClient.class);
        String partner = "acme-" + algorithm + "-" + UUID.randomUUID();
        String rule = "PartnerClient." + methodName(algorithm);
        double allowedBefore = metered(rule, "allowed");
        double blockedBefore = metered(rule, "blocked");

        int admitted = ConcurrentClients.admitted(64, 2, thread -> {
            try {
                PartnerClient.call(clients.get(thread % clients.size()), algorithm, partner);
                return true;
            } catch (RateLimitExceededException refused) {
                assertThat(refused.rule().rule()).isEqualTo(rule);
                assertThat(refused.retryAfter()).isPositive();
                return false;
            }
        });

        assertThat(admitted).isEqualTo(PartnerClient.LIMIT);
        assertThat(metered(rule, "allowed") - allowedBefore).isEqualTo(PartnerClient.LIMIT);
        assertThat(metered(rule, "blocked") - blockedBefore).isEqualTo(128 - PartnerClient.LIMIT);
    }

    /**
     * 64 threads over the instances call a method of 5 per 2-second window, each waiting up to 3 s for its
     * turn. Waiting callers wake when the window they were told of ends, so each window's admissions come
     * in one burst at its start, bursts a window apart: counted per burst, every window admits exactly 5,
     * never more, and callers are admitted in a later window than the first (they waited). The others are
     * refused once the next window would open past their wait, each told a wait within one window.
     */
    @Test
    default void waitingCallersAreAdmittedAsTheWindowAllowsNeverMore() throws Exception {
        List<PartnerClient> clients = beans(PartnerClient.class);
        String run = "queue-" + UUID.randomUUID();
        List<Long> ranAt = new CopyOnWriteArrayList<>();
        List<Duration> toldToWait = new CopyOnWriteArrayList<>();

        int admitted = ConcurrentClients.admitted(64, 1, thread -> {
            try {
                ranAt.add(clients.get(thread % clients.size()).queued(run));
                return true;
            } catch (RateLimitExceededException refused) {
                toldToWait.add(refused.retryAfter());
                return false;
            }
        });

        long window = TimeUnit.SECONDS.toNanos(PartnerClient.QUEUED_WINDOW_SECONDS);
        List<Integer> perWindow = bursts(ranAt, window / 2);
        assertThat(perWindow).as("admissions per window").hasSizeGreaterThanOrEqualTo(2)
                .containsOnly(PartnerClient.QUEUED_LIMIT);
        assertThat(admitted).isEqualTo(PartnerClient.QUEUED_LIMIT * perWindow.size());
        assertThat(toldToWait).hasSize(64 - admitted).allSatisfy(wait -> assertThat(wait)
                .isPositive().isLessThanOrEqualTo(Duration.ofSeconds(PartnerClient.QUEUED_WINDOW_SECONDS)));
    }

    /**
     * 64 threads over the instances count calls against a rule defined in code, 50 per partner: exactly 50
     * go on; waiting for the next token (a day / 50) does not fit in 100 ms, so {@code acquire} refuses at
     * once with the wait. A bean method's rule counted from code shares the method's counter.
     */
    @Test
    default void codeCountsCallsAgainstARuleExactly() throws Exception {
        List<RateLimitService> services = beans(RateLimitService.class);
        RuleId quota = RuleId.of("fixture", CodeRules.NAME);
        String partner = "globex-" + UUID.randomUUID();

        int admitted = ConcurrentClients.admitted(64, 2,
                thread -> services.get(thread % services.size()).tryAcquire(quota, partner));

        assertThat(admitted).isEqualTo(CodeRules.LIMIT);
        long startedAt = System.nanoTime();
        assertThatThrownBy(() -> services.get(0).acquire(quota, partner, Duration.ofMillis(100)))
                .isInstanceOfSatisfying(RateLimitExceededException.class, refused -> {
                    assertThat(refused.rule()).isEqualTo(quota);
                    assertThat(refused.retryAfter()).isGreaterThan(Duration.ofMinutes(1));
                });
        assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).as("refused without waiting")
                .isLessThan(Duration.ofMillis(100));

        RuleId method = RuleId.of("fixture", "PartnerClient.fixedWindow");
        String shared = "initech-" + UUID.randomUUID();
        for (int i = 0; i < PartnerClient.LIMIT; i++) {
            assertThat(services.get(i % services.size()).tryAcquire(method, shared)).isTrue();
        }
        assertThatThrownBy(() -> beans(PartnerClient.class).get(0).fixedWindow(shared))
                .isInstanceOf(RateLimitExceededException.class);
    }

    /**
     * A controller's {@code @RateLimit} is counted by the web layer alone: the advisor leaves controllers
     * alone, and its 3 requests a day are 3, not 1 or 2.
     */
    @Test
    default void aControllerMethodWithRateLimitIsCountedOnceNotTwice() {
        for (ConfigurableApplicationContext app : apps()) {
            assertThat(app.getBean(CallingController.class)).as("the controller is not advised")
                    .satisfiesAnyOf(bean -> assertThat(bean).isNotInstanceOf(Advised.class),
                            bean -> assertThat(((Advised) bean).getAdvisors())
                                    .noneMatch(MethodLimitAdvisor.class::isInstance));
            assertThat(app.getBean(PartnerClient.class)).isInstanceOfSatisfying(Advised.class, advised ->
                    assertThat(advised.getAdvisors()).anyMatch(MethodLimitAdvisor.class::isInstance));
        }
        List<HttpProbe> probes = probes();
        String path = "/counted-once?usercode=" + UUID.randomUUID();

        assertThat(IntStream.range(0, CallingController.ONCE_LIMIT + 1)
                .map(i -> probes.get(i % probes.size()).status(path)))
                .containsExactly(200, 200, 200, 429);
    }

    /**
     * A bean method's {@code USER} limit counts the user of the request the call happens in; called outside
     * any request (a scheduled job, a listener) it does not apply.
     */
    @Test
    default void aBeanMethodsUserLimitCountsTheUserOfTheRequestItIsCalledIn() {
        List<HttpProbe> probes = probes();
        String path = "/relay?usercode=" + UUID.randomUUID();

        assertThat(IntStream.range(0, PartnerClient.PER_USER + 1).map(i -> probes.get(i % probes.size()).status(path)))
                .containsExactly(200, 200, 429);
        PartnerClient client = beans(PartnerClient.class).get(0);
        for (int i = 0; i <= PartnerClient.PER_USER; i++) {
            assertThat(client.forUser()).isEqualTo("ok");
        }
    }

    /**
     * 64 threads over the instances call a bean method limited to 2 calls running at once, each held inside
     * until the test lets them go: exactly 2 run, the others are refused at once, naming the rule. Once they
     * have ended their slots are free and no instance holds a lease.
     */
    @Test
    default void callsOfAMethodLimitedAtOnceRunExactlyTheLimitAndEndingFreesTheirSlots() throws Exception {
        List<PartnerClient> clients = beans(PartnerClient.class);
        String run = "running-" + UUID.randomUUID();
        Occupancy inside = Occupancy.of(run);
        AtomicInteger refused = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(64);
        try {
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                PartnerClient client = clients.get(i % clients.size());
                calls.add(threads.submit(() -> {
                    try {
                        client.running(run);
                        return true;
                    } catch (RateLimitExceededException e) {
                        assertThat(e.rule().rule()).isEqualTo("PartnerClient.running");
                        refused.incrementAndGet();
                        return false;
                    }
                }));
            }
            Awaitility.await("all but the limit refused").atMost(SETTLES)
                    .until(() -> refused.get() == 64 - PartnerClient.RUNNING);
            assertThat(inside.inside()).as("running now").isEqualTo(PartnerClient.RUNNING);
            inside.open();
            int ran = 0;
            for (Future<Boolean> call : calls) {
                ran += call.get(SETTLES.toSeconds(), TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(ran).isEqualTo(PartnerClient.RUNNING);
            assertThat(inside.most()).as("the most running at once").isEqualTo(PartnerClient.RUNNING);
        } finally {
            threads.shutdownNow();
        }
        RateLimitService service = beans(RateLimitService.class).get(0);
        RuleId rule = RuleId.of("fixture", "PartnerClient.running");
        Awaitility.await("every slot free").atMost(SETTLES).until(() -> service.peek(rule, run)
                .map(Allowance::remaining).orElse(-1L) == PartnerClient.RUNNING);
        Awaitility.await("no lease held").atMost(SETTLES)
                .until(() -> beans(HeldLeases.class).stream().allMatch(leases -> leases.size() == 0));
        assertThatThrownBy(() -> service.tryAcquire(rule, run)).as("code cannot end a call it counts")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limits calls running at once");
    }

    /**
     * 64 threads over the instances, three calls each, of a bean method charged what its result says it
     * used (0 to 5 units, its estimate 1): once every call has ended, the units charged are exactly the sum
     * of the results.
     */
    @Test
    default void aMethodIsChargedExactlyWhatItsResultsSayItUsed() throws Exception {
        List<PartnerClient> clients = beans(PartnerClient.class);
        String run = "generate-" + UUID.randomUUID();
        AtomicLong used = new AtomicLong();

        int admitted = ConcurrentClients.admitted(64, 3, thread -> {
            long units = ThreadLocalRandom.current().nextLong(6);
            used.addAndGet(clients.get(thread % clients.size()).generate(run, units));
            return true;
        });

        assertThat(admitted).isEqualTo(64 * 3);
        RateLimitService service = beans(RateLimitService.class).get(0);
        RuleId rule = RuleId.of("fixture", "PartnerClient.generate");
        Awaitility.await("every call settled").atMost(SETTLES).until(() -> service.peek(rule, run)
                .map(Allowance::remaining).orElse(-1L) == PartnerClient.BUDGET - used.get());
    }

    /** {@code ratelimit.requests} of a rule of the fixture with an outcome, over the instances. */
    private double metered(String rule, String outcome) {
        return beans(MeterRegistry.class).stream().map(registry -> registry.find("ratelimit.requests")
                .tags("module", "fixture", "rule", rule, "outcome", outcome).counter())
                .mapToDouble(counter -> counter == null ? 0 : counter.count()).sum();
    }

    private <T> List<T> beans(Class<T> type) {
        return apps().stream().map(app -> app.getBean(type)).toList();
    }

    private List<HttpProbe> probes() {
        return apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
    }

    /** The handler method of an algorithm's fixture method, e.g. {@code tokenBucket}. */
    private static String methodName(Algorithm algorithm) {
        return dev.ratelimit.interceptor.fixture.AlgorithmController.methodName(algorithm);
    }

    /** How many of {@code times} fall in each burst, in order: a burst ends where the next time is more than {@code gap} later. */
    private static List<Integer> bursts(List<Long> times, long gap) {
        long[] sorted = times.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] - sorted[i - 1] > gap) {
                sizes.add(0);
            }
            sizes.set(sizes.size() - 1, sizes.get(sizes.size() - 1) + 1);
        }
        return sizes;
    }
}
