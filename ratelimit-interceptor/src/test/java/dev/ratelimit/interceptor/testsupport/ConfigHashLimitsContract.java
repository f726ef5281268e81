package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PlanController;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The limits an operator gives in the config hash rather than in an annotation: a plan's count, an
 * exception for one client, a {@code dynuri} calendar quota with a penalty. Run by each test class whose
 * instances read a Redis config hash, whatever store counts: one Redis, a Redis Cluster, the in-process
 * store beside a Redis for the config.
 */
public interface ConfigHashLimitsContract {

    /** The running instances of the fixture app, all reading one config hash. */
    List<ConfigurableApplicationContext> apps();

    /**
     * A client gets its plan's limit from the config hash, or an operator's exception for it, exactly,
     * under 64 concurrent clients over the instances; a plan without a field and an ended exception leave
     * the declared limit.
     */
    @Test
    default void plansAndExceptionsGiveEachClientItsOwnLimitExactly() throws Exception {
        ConfigurableApplicationContext first = apps().get(0);
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        SysConfigEditor editor = first.getBean(SysConfigEditor.class);
        editor.setPlanLimit(PlanController.RULE, "pro", "7/60");
        editor.setException(PlanController.RULE, "vip", "11/60", Instant.now().plus(Duration.ofHours(1)));
        Awaitility.await("every instance has the plan and the exception").atMost(Duration.ofSeconds(10))
                .until(() -> apps().stream().map(app -> app.getBean(RuleCatalog.class).current().rule(PlanController.RULE))
                        .allMatch(rule -> rule.isPresent() && rule.get().plans().containsKey("pro")
                                && rule.get().exceptions().containsKey("vip")));

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
     * An operator's {@code dynuri} rule {@code 3/day penalty=600} on an endpoint without annotation: exactly 3
     * under 64 clients over the instances, and a denial says the true wait, the longer of the block and
     * the time to midnight (UTC).
     */
    @Test
    default void aDynamicRuleCanBeADailyQuotaWithAPenalty() throws Exception {
        ConfigurableApplicationContext first = apps().get(0);
        List<HttpProbe> probes = apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        first.getBean(SysConfigEditor.class).setUriRule("/open/quota", "3/day penalty=600");
        Awaitility.await("every instance has the rule").atMost(Duration.ofSeconds(10))
                .until(() -> apps().stream().allMatch(app -> app.getBean(RuleCatalog.class).current()
                        .uriPattern("/open/quota").isPresent()));
        List<Long> retryAfters = new CopyOnWriteArrayList<>();

        CalendarBurst.Result burst = CalendarBurst.withinOnePeriod(ZoneOffset.UTC, CalendarBurst.dayEnd(ZoneOffset.UTC),
                attempt -> {
                    retryAfters.clear();
                    return ConcurrentClients.admitted(64, 1, thread -> {
                        HttpResponse<String> response = probes.get(thread % probes.size())
                                .get("/open/quota?usercode=ned" + attempt);
                        assertThat(response.statusCode()).isIn(200, 429);
                        if (response.statusCode() == 429) {
                            retryAfters.add(Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()));
                        }
                        return response.statusCode() == 200;
                    });
                });

        assertThat(burst.admitted()).isEqualTo(3);
        long toMidnight = Duration.between(burst.endedAt(), CalendarBurst.dayEnd(ZoneOffset.UTC).apply(burst.endedAt()))
                .toSeconds();
        long expected = Math.max(600, toMidnight);
        assertThat(retryAfters).isNotEmpty().allSatisfy(retryAfter -> assertThat(retryAfter).isBetween(expected - 60,
                expected + 60));
    }
}
