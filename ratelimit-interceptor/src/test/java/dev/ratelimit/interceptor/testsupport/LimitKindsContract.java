package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.BatchController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PenaltyController;
import dev.ratelimit.interceptor.fixture.QuotaController;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.RateLimitStore;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
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
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    default void aLoginCountsExactlyItsFailuresUnderConcurrency(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertExactlyTheFailuresAreCounted(algorithm, "ada-" + algorithm);
    }

    /**
     * 64 clients over the instances: exactly the limit admitted, then every denial, by Redis or by an
     * instance's near cache, tells the block's true end; on Redis, resetting the counter (the console's
     * Unblock) ends the block at once. The in-process store has no counter an operator can reset.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
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
            RuleId rule = RuleId.of("fixture", "PenaltyController." + AlgorithmController.methodName(algorithm));
            assertThat(editor.resetCounter(first.getBean(RedisKeys.class).counter(rule, Dimension.USER, algorithm, user)))
                    .isTrue();
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
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
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
            ZoneId zone = period.equals("day") ? ZoneOffset.UTC : ZoneId.of(QuotaController.MONTH_ZONE);
            UnaryOperator<ZonedDateTime> periodEnd = period.equals("day") ? CalendarBurst.dayEnd(zone)
                    : CalendarBurst.monthEnd(zone);
            List<Long> retryAfters = new CopyOnWriteArrayList<>();

            CalendarBurst.Result burst = CalendarBurst.withinOnePeriod(zone, periodEnd, attempt -> {
                retryAfters.clear();
                return ConcurrentClients.admitted(64, 2, thread -> {
                    HttpResponse<String> response = probes.get(thread % probes.size())
                            .get("/quota/" + period + "?usercode=ida" + attempt);
                    assertThat(response.statusCode()).isIn(200, 429);
                    if (response.statusCode() == 429) {
                        retryAfters.add(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()));
                    }
                    return response.statusCode() == 200;
                });
            });

            assertThat(burst.admitted()).as(period).isEqualTo(period.equals("day") ? QuotaController.PER_DAY
                    : QuotaController.PER_MONTH);
            long secondsLeft = Duration.between(burst.endedAt(), periodEnd.apply(burst.endedAt())).toSeconds();
            // Rounded up to whole seconds, and measured before the burst ended.
            assertThat(retryAfters).as("Retry-After of the %s quota", period).isNotEmpty()
                    .allSatisfy(retryAfter -> assertThat(retryAfter).isBetween(secondsLeft, secondsLeft + 60));
        }
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
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    default void aMixedBurstOfLoginsCountsOnlyItsFailures(Algorithm algorithm) throws Exception {
        new FailedLogins(apps()).assertAMixedBurstCountsOnlyFailures(algorithm, "bob-" + algorithm);
    }

    @Test
    default void successesStillRunningHoldTheirUnitsUntilTheyEnd() throws Exception {
        new FailedLogins(apps()).assertRunningSuccessesHoldTheirUnitsUntilTheyEnd("cy");
    }
}
