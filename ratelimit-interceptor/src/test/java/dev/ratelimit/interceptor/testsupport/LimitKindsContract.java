package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.BatchController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.fixture.PlanController;
import dev.ratelimit.interceptor.fixture.QuotaController;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The tests of the kinds of limit beyond a plain count, {@code countWhen} ({@link FailedLogins}) and
 * {@code blockFor}, for every algorithm, run by each test class that starts instances on a store: one
 * Redis, a Redis Cluster, the in-process store.
 */
public interface LimitKindsContract {

    /** The running instances of the fixture app, all on the store under test. */
    List<ConfigurableApplicationContext> apps();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void aLoginCountsExactlyItsFailuresUnderConcurrency(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertExactlyTheFailuresAreCounted(algorithm, "ada-" + algorithm);
    }

    /**
     * 64 clients over the instances: exactly the limit admitted, then every denial, by Redis or by an
     * instance's near cache, tells the block's true end; on Redis, resetting the counter (the console's
     * Unblock) ends the block at once. The in-process store has no counter an operator can reset.
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void aClientDeniedOnceIsBlockedForThePenaltyUntilUnblocked(Algorithm algorithm) throws Exception {
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        String user = "eve-" + algorithm;
        String path = PenaltyController.path(algorithm) + "?usercode=" + user;
        long start = System.nanoTime();

        int admitted = ConcurrentClients.admitted(64, 3, thread -> {
            HttpResponse<String> response = probes.get(thread % probes.size()).get(path);
            assertThat(response.statusCode()).isIn(200, 429);
            if (response.statusCode() == 429) {
                long elapsedSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                assertThat(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()))
                        .as("the block's end").isBetween(PenaltyController.BLOCK_SECONDS - elapsedSeconds - 1,
                                PenaltyController.BLOCK_SECONDS);
            }
            return response.statusCode() == 200;
        });

        assertThat(admitted).isEqualTo(PenaltyController.LIMIT);
        ConfigurableApplicationContext first = apps().get(0);
        if (!"memory".equals(first.getBean(RateLimitStore.class).describe().type())) {
            SysConfigEditor editor = first.getBean(SysConfigEditor.class);
            String rule = "PenaltyController." + AlgorithmController.methodName(algorithm);
            assertThat(editor.resetCounter(first.getBean(RedisKeys.class).counter("fixture", rule, Dimension.USER,
                    algorithm, user))).isTrue();
            Awaitility.await("unblocked on every instance").atMost(Duration.ofSeconds(10))
                    .until(() -> probes.stream().allMatch(probe -> probe.status(path) == 200));
        }
    }

    /**
     * Batches of 1 to 3 items from 64 clients over the instances take no more than the units there are,
     * and a batch too heavy for what is left takes none of it: single items sent afterwards make up
     * exactly the rest. A batch heavier than the whole limit is refused as such.
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void batchesTakeExactlyTheUnitsThereAreWhateverTheirSizes(Algorithm algorithm) throws Exception {
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        String batch = BatchController.path(algorithm) + "?usercode=fay-" + algorithm + "&items=";
        AtomicInteger units = new AtomicInteger();

        ConcurrentClients.admitted(64, 3, thread -> {
            int size = thread % 3 + 1;
            int status = probes.get(thread % probes.size()).post(batch + "x,y,z".substring(0, 2 * size - 1)).statusCode();
            assertThat(status).isIn(200, 429);
            if (status == 200) {
                units.addAndGet(size);
            }
            return status == 200;
        });
        assertThat(units.get()).as("units taken by the burst").isBetween(BatchController.UNITS - 2, BatchController.UNITS);
        int singles = 0;
        while (probes.get(singles % probes.size()).post(batch + "x").statusCode() == 200) {
            singles++;
            assertThat(units.get() + singles).as("units taken").isLessThanOrEqualTo(BatchController.UNITS);
        }
        assertThat(units.get() + singles).as("units taken in all").isEqualTo(BatchController.UNITS);

        HttpResponse<String> tooHeavy = probes.get(0).post(BatchController.path(algorithm) + "?usercode=gus-" + algorithm
                + "&items=" + "x,".repeat(BatchController.UNITS) + "x", "Accept-Language", "en");
        assertThat(tooHeavy.statusCode()).isEqualTo(400);
        assertThat(tooHeavy.body()).contains("\"cost\":" + (BatchController.UNITS + 1))
                .contains("more than the " + BatchController.UNITS + " allowed per 86400 second(s)");
    }

    /**
     * 64 clients over the instances: a daily quota (UTC) and a monthly one (Tokyo) admit exactly their
     * count, and a denial's {@code Retry-After} points at the period's end: the next midnight, the 1st.
     */
    @Test
    default void calendarQuotasAdmitExactlyTheirCountAndPointAtThePeriodsEnd() throws Exception {
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        for (String period : List.of("day", "month")) {
            String path = "/quota/" + period + "?usercode=ida";
            ZoneId zone = period.equals("day") ? ZoneOffset.UTC : ZoneId.of(QuotaController.MONTH_ZONE);
            List<Long> retryAfters = new CopyOnWriteArrayList<>();

            int admitted = ConcurrentClients.admitted(64, 2, thread -> {
                HttpResponse<String> response = probes.get(thread % probes.size()).get(path);
                assertThat(response.statusCode()).isIn(200, 429);
                if (response.statusCode() == 429) {
                    retryAfters.add(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()));
                }
                return response.statusCode() == 200;
            });

            assertThat(admitted).as(period).isEqualTo(period.equals("day") ? QuotaController.PER_DAY
                    : QuotaController.PER_MONTH);
            ZonedDateTime now = ZonedDateTime.now(zone);
            ZonedDateTime end = period.equals("day") ? now.toLocalDate().plusDays(1).atStartOfDay(zone)
                    : now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(zone);
            long secondsLeft = Duration.between(now, end).toSeconds();
            // Rounded up to whole seconds, and measured before now was read.
            assertThat(retryAfters).as("Retry-After of the %s quota", period).isNotEmpty()
                    .allSatisfy(retryAfter -> assertThat(retryAfter).isBetween(secondsLeft, secondsLeft + 60));
        }
    }

    /**
     * A client gets its plan's limit from the config hash, or an operator's exception for it, exactly,
     * under 64 concurrent clients over the instances; a plan without a field and an ended exception leave
     * the declared limit. On the in-process store's app there is no Redis to hold the config hash.
     */
    @Test
    default void plansAndExceptionsGiveEachClientItsOwnLimitExactly() throws Exception {
        ConfigurableApplicationContext first = apps().get(0);
        assumeFalse("memory".equals(first.getBean(RateLimitStore.class).describe().type()),
                "the in-process store's app has no Redis for the config hash");
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        SysConfigEditor editor = first.getBean(SysConfigEditor.class);
        editor.setPlanLimit(PlanController.RULE, "pro", "7/60");
        editor.setException(PlanController.RULE, "vip", "11/60", Instant.now().plus(Duration.ofHours(1)));
        Awaitility.await("every instance has the plan and the exception").atMost(Duration.ofSeconds(10))
                .until(() -> apps().stream().map(app -> app.getBean(RuleSnapshotHolder.class).current())
                        .allMatch(snapshot -> snapshot.plan(PlanController.RULE, "pro") != null
                                && snapshot.exception(PlanController.RULE, "vip", Instant.now()) != null));

        Map<String, Integer> expected = Map.of("pro", 7, "free", PlanController.DECLARED, "vip", 11);
        for (Map.Entry<String, Integer> client : expected.entrySet()) {
            String user = client.getKey().equals("vip") ? "vip" : "liz-" + client.getKey();
            String plan = client.getKey().equals("vip") ? "free" : client.getKey();
            int admitted = ConcurrentClients.admitted(64, 1, thread -> probes.get(thread % probes.size())
                    .status("/planned?usercode=" + user, "X-Plan", plan) == 200);
            assertThat(admitted).as(client.getKey()).isEqualTo(client.getValue());
        }
    }

    /**
     * An operator's {@code dynuri} rule {@code 3/day block=600} on an endpoint without annotation: exactly 3
     * under 64 clients over the instances, and a denial says the true wait, the longer of the block and
     * the time to midnight (UTC).
     */
    @Test
    default void aDynamicRuleCanBeADailyQuotaWithAPenalty() throws Exception {
        ConfigurableApplicationContext first = apps().get(0);
        assumeFalse("memory".equals(first.getBean(RateLimitStore.class).describe().type()),
                "the in-process store's app has no Redis for the config hash");
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        first.getBean(SysConfigEditor.class).setUriRule("/open/quota", "3/day block=600");
        Awaitility.await("every instance has the rule").atMost(Duration.ofSeconds(10))
                .until(() -> apps().stream().allMatch(app -> app.getBean(RuleSnapshotHolder.class).current()
                        .uriRule("/open/quota") != null));
        List<Long> retryAfters = new CopyOnWriteArrayList<>();

        int admitted = ConcurrentClients.admitted(64, 1, thread -> {
            HttpResponse<String> response = probes.get(thread % probes.size()).get("/open/quota?usercode=ned");
            assertThat(response.statusCode()).isIn(200, 429);
            if (response.statusCode() == 429) {
                retryAfters.add(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()));
            }
            return response.statusCode() == 200;
        });

        assertThat(admitted).isEqualTo(3);
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        long toMidnight = Duration.between(now, now.toLocalDate().plusDays(1).atStartOfDay(ZoneOffset.UTC)).toSeconds();
        long expected = Math.max(600, toMidnight);
        assertThat(retryAfters).isNotEmpty().allSatisfy(retryAfter -> assertThat(retryAfter).isBetween(expected - 60,
                expected + 60));
    }

    @Test
    default void aFixedCostTakesItsUnitsFromEveryRequest() {
        HttpProbe http = new HttpProbe(FixtureApplication.port(apps().get(0)));
        String weighed = "/weighed?usercode=hal";

        assertThat(http.post(weighed).statusCode()).isEqualTo(200);
        HttpResponse<String> second = http.post(weighed);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("RateLimit").orElseThrow())
                .as("units left").contains(";r=" + (BatchController.UNITS - 2 * BatchController.FIXED_COST) + ";");
        assertThat(http.post(weighed).statusCode()).as("4 more do not fit in the 2 left").isEqualTo(429);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    default void aMixedBurstOfLoginsCountsOnlyItsFailures(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertAMixedBurstCountsOnlyFailures(algorithm, "bob-" + algorithm);
    }
}
