package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.actuate.RateLimitEndpoint;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PartnerClient;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.stats.TrafficCount;
import dev.ratelimit.interceptor.stats.TrafficGranularity;
import dev.ratelimit.interceptor.stats.TrafficRecorder;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The deny list over the running instances of a test class, all reading one config hash, whatever store
 * counts (one Redis, a Redis Cluster, the in-process store beside a Redis for the config): a client an
 * operator denies is refused on every instance within a second of the write, before any limit counts it,
 * metered, in the live statistics and logged exactly; an entry with an end stops at its end; the deny list
 * beats the whitelist, and the master switch lifts it. A call of a limited bean method is refused as a request is.
 */
public interface DenyListContract {

    /** {@code LimitedController.user}: 50 per 60 s per user. */
    String LIMITED = "/user";
    int LIMIT = 50;
    /** An endpoint without a limit: asking it counts nothing, so it tells when a denial reaches an instance. */
    String UNLIMITED = "/open/plain";
    /** The promise: refused on every instance within a second of the change. */
    Duration ANNOUNCED = Duration.ofSeconds(1);
    int CLIENTS = 64;

    /** The running instances of the fixture app, all reading one config hash. */
    List<ConfigurableApplicationContext> apps();

    @Test
    default void aDeniedUserIsRefusedEverywhereWithinASecondAndNothingIsCountedButTheRefusalsExactly()
            throws Exception {
        String user = "denied-" + UUID.randomUUID().toString().substring(0, 8);
        List<HttpProbe> probes = probes();
        double meteredBefore = metered(DenyList.Kind.USER);
        AtomicLong refusals = new AtomicLong();

        long start = System.nanoTime();
        apps().get(0).getBean(SysConfigEditor.class).deny(DenyList.Kind.USER, user, null, "contract");
        long[] refusedAfter = untilEvery(probes, UNLIMITED + "?usercode=" + user, 403, start, refusals);

        System.out.printf("deny list propagation: refused after %s ms on the instances, counted from the start of "
                + "the editor's write%n", Arrays.toString(refusedAfter));
        assertThat(Arrays.stream(refusedAfter).max().orElseThrow()).isLessThanOrEqualTo(ANNOUNCED.toMillis());
        HttpResponse<String> refused = probes.get(1 % probes.size()).get(LIMITED + "?usercode=" + user,
                "Accept-Language", "en");
        refusals.incrementAndGet();
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).isEqualTo("{\"error\":\"Access denied.\",\"successful\":0,\"ratelimit\":1,\"denied\":1}");
        assertThat(refused.headers().map()).doesNotContainKeys("retry-after", "ratelimit", "ratelimit-policy");
        int admitted = ConcurrentClients.admitted(CLIENTS, 1, thread -> {
            int status = probes.get(thread % probes.size()).status(LIMITED + "?usercode=" + user);
            assertThat(status).isEqualTo(403);
            refusals.incrementAndGet();
            return status == 200;
        });
        assertThat(admitted).isZero();
        assertThat(apps().get(apps().size() - 1).getBean(RateLimitEndpoint.class).report(true).denyList())
                .satisfies(list -> {
                    assertThat(list.bound()).isEqualTo(DenyList.MAX_ENTRIES);
                    assertThat(list.entries()).contains(new DenyList.Entry(DenyList.Kind.USER, user, null, "contract"));
                });

        assertThat(metered(DenyList.Kind.USER) - meteredBefore).as("metered denied").isEqualTo(refusals.get());
        // Written now rather than at the next interval: what is counted, not when it is written, is under test.
        apps().forEach(app -> app.getBean(TrafficRecorder.class).flush());
        Awaitility.await("every refusal in the live statistics").atMost(Duration.ofSeconds(20))
                .until(() -> inLiveStatistics(DenyList.Kind.USER) == metered(DenyList.Kind.USER));
        Awaitility.await("every refusal in the interception log, as the deny list's").atMost(Duration.ofSeconds(20))
                .until(() -> logged(user) == refusals.get());

        apps().get(0).getBean(SysConfigEditor.class).undeny(DenyList.Kind.USER, user);
        untilEvery(probes, UNLIMITED + "?usercode=" + user, 200, System.nanoTime(), new AtomicLong());
        assertThat(ConcurrentClients.admitted(CLIENTS, 1, thread -> probes.get(thread % probes.size())
                .status(LIMITED + "?usercode=" + user) == 200)).as("nothing was counted while denied").isEqualTo(LIMIT);
    }

    /** The whole loopback block denied for a couple of seconds: refused at once, with the time left, then admitted. */
    @Test
    default void anAddressBlockWithAnEndIsRefusedUntilItsEndAndNoLonger() {
        List<HttpProbe> probes = probes();
        Instant until = Instant.now().plusSeconds(3);
        long start = System.nanoTime();
        apps().get(0).getBean(SysConfigEditor.class).deny(DenyList.Kind.IP, "127.0.0.1/8", until, "");
        untilEvery(probes, UNLIMITED, 403, start, new AtomicLong());

        HttpResponse<String> refused = probes.get(0).get(LIMITED + "?usercode=anyone");
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(retryAfter).isBetween(1L, 3L);
        assertThat(refused.body()).endsWith(",\"denied\":1,\"retryAfter\":" + retryAfter + "}");

        for (HttpProbe probe : probes) {
            Awaitility.await("admitted once the entry ended").atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(20)).until(() -> probe.status(UNLIMITED) == 200);
            assertThat(Instant.now()).as("not before the end").isAfterOrEqualTo(until);
        }
    }

    /** An IPv6 block denied refuses a client of IPv6 (the loopback {@code ::1}) and no client of IPv4. */
    @Test
    default void anIpv6BlockRefusesItsClientsAndNoIpv4Client() {
        List<HttpProbe> ipv6 = apps().stream().map(app -> new HttpProbe("[::1]", FixtureApplication.port(app))).toList();
        SysConfigEditor editor = apps().get(0).getBean(SysConfigEditor.class);
        String block = CidrBlock.parse("0:0:0:0:0:0:0:0/127").canonical(); // ::1 and ::
        editor.deny(DenyList.Kind.IP, block, null, "");
        try {
            untilEvery(ipv6, UNLIMITED, 403, System.nanoTime(), new AtomicLong());
            for (HttpProbe probe : probes()) {
                assertThat(probe.status(UNLIMITED)).as("an IPv4 client").isEqualTo(200);
            }
        } finally {
            editor.undeny(DenyList.Kind.IP, block);
        }
        untilEvery(ipv6, UNLIMITED, 200, System.nanoTime(), new AtomicLong());
    }

    /**
     * A key is refused on the endpoints whose CUSTOM limit counts it; an entry the limiter cannot read is ignored
     * and the others apply.
     */
    @Test
    default void aDeniedKeyIsRefusedWhereACustomLimitCountsItAndABadEntryIsIgnored() {
        List<HttpProbe> probes = probes();
        String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
        ConfigurableApplicationContext first = apps().get(0);
        first.getBean(StringRedisTemplate.class).opsForHash()
                .put("ratelimit:sysconfig", "deny.user.by-hand", "next tuesday");
        long start = System.nanoTime();
        first.getBean(SysConfigEditor.class).deny(DenyList.Kind.KEY, tenant, Instant.now().plusSeconds(3600), "");

        untilEvery(probes, "/tenant/" + tenant + "/report", 403, start, new AtomicLong());

        assertThat(probes.get(0).status("/tenant/other-" + tenant + "/report")).isEqualTo(200);
        // A call of a bean method counting the key is refused as a request is.
        PartnerClient client = first.getBean(PartnerClient.class);
        assertThatThrownBy(() -> client.fixedWindow(tenant)).isInstanceOfSatisfying(RateLimitExceededException.class,
                refused -> {
                    assertThat(refused.rule()).hasToString("fixture.deny.key");
                    assertThat(refused.retryAfter()).isBetween(Duration.ofMinutes(55), Duration.ofHours(1));
                    assertThat(refused).hasMessageStartingWith("Denied by the deny list (fixture.deny.key) for ");
                });
        assertThat(client.fixedWindow("other-" + tenant)).isEqualTo("sent to other-" + tenant);
        assertThat(probes.get(0).status(UNLIMITED + "?usercode=" + tenant)).as("a key is no user").isEqualTo(200);
        assertThat(apps()).allSatisfy(app -> assertThat(app.getBean(RateLimitEndpoint.class).report(true).snapshot()
                .ignored()).containsKey("deny.user.by-hand"));
        first.getBean(SysConfigEditor.class).undeny(DenyList.Kind.KEY, tenant);
        first.getBean(SysConfigEditor.class).undeny(DenyList.Kind.USER, "by-hand");
    }

    /** A denied client is refused although whitelisted; the master switch off lets it through. */
    @Test
    default void theDenyListBeatsTheWhitelistAndTheMasterSwitchLiftsIt() {
        List<HttpProbe> probes = probes();
        String user = "listed-" + UUID.randomUUID().toString().substring(0, 8);
        SysConfigEditor editor = apps().get(0).getBean(SysConfigEditor.class);
        try {
            editor.setWhitelistIps("127.0.0.1");
            long start = System.nanoTime();
            editor.deny(DenyList.Kind.USER, user, null, "");
            untilEvery(probes, LIMITED + "?usercode=" + user, 403, start, new AtomicLong());

            editor.setGlobalSwitch(false);

            untilEvery(probes, LIMITED + "?usercode=" + user, 200, System.nanoTime(), new AtomicLong());
        } finally {
            editor.edit().globalSwitch(true).whitelistIps("").undeny(DenyList.Kind.USER, user).apply();
        }
    }

    private List<HttpProbe> probes() {
        return apps().stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
    }

    /**
     * Asks every instance for {@code path} until each answers {@code status}, at most {@link #ANNOUNCED} after
     * {@code sinceNanos}; counts the 403s it got.
     *
     * @return when each instance first answered so, in ms after {@code sinceNanos}
     */
    private static long[] untilEvery(List<HttpProbe> probes, String path, int status, long sinceNanos,
                                     AtomicLong refusals) {
        long[] answeredAfter = new long[probes.size()];
        Arrays.fill(answeredAfter, -1);
        Awaitility.await(path + " answered " + status + " by every instance").atMost(ANNOUNCED)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).until(() -> {
                    for (int i = 0; i < probes.size(); i++) {
                        if (answeredAfter[i] < 0) {
                            int answer = probes.get(i).status(path);
                            if (answer == 403) {
                                refusals.incrementAndGet();
                            }
                            if (answer == status) {
                                answeredAfter[i] = Duration.ofNanos(System.nanoTime() - sinceNanos).toMillis();
                            }
                        }
                    }
                    return Arrays.stream(answeredAfter).allMatch(after -> after >= 0);
                });
        return answeredAfter;
    }

    /** The refusals of one kind of entry the instances metered, {@code ratelimit.requests} of outcome {@code denied}. */
    private double metered(DenyList.Kind kind) {
        return apps().stream().mapToDouble(app -> {
            Counter counter = app.getBean(MeterRegistry.class).find("ratelimit.requests")
                    .tags("module", "fixture", "rule", kind.rule(), "outcome", Outcome.DENIED.tag()).counter();
            return counter == null ? 0 : counter.count();
        }).sum();
    }

    /** The same in the traffic statistics of the last hour, as the console's live charts read them. */
    private double inLiveStatistics(DenyList.Kind kind) {
        Instant now = Instant.now();
        return apps().get(0).getBean(TrafficStatistics.class)
                .read(List.of("fixture"), TrafficGranularity.TEN_SECONDS, now.minus(Duration.ofHours(1)), now.plusSeconds(10))
                .stream().filter(count -> count.rule().equals(RuleId.of("fixture", kind.rule())) && count.outcome() == Outcome.DENIED)
                .mapToLong(TrafficCount::count).sum();
    }

    /** The deny list's interceptions of a user logged by every instance (each has a log of its own here). */
    private long logged(String user) {
        return apps().stream().mapToLong(app -> LogTable.of(app).hits(
                "module = 'fixture' AND rule = ? AND usercode = ? AND reason = 'deny'", DenyList.Kind.USER.rule(), user)).sum();
    }
}
