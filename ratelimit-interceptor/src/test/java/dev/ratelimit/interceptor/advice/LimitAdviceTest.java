package dev.ratelimit.interceptor.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.LoginController;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.FailedLogins;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The limit advisor on known traffic over two instances of one app: ten clients, the i-th asking i
 * times in one window, sent from 16 threads to both instances in turn, once on a rule enforced at 5 (so the near
 * caches refuse some of it without Redis) and once on a rule in shadow mode. For every limit, what the advisor says
 * it would have refused is what that limit refuses when the same traffic is sent again against it; on one Redis
 * and on a Redis Cluster. Every rule, whatever its algorithm, has its requests per window, refused ones included.
 */
class LimitAdviceTest {

    private static final RuleId ENFORCED = RuleId.of("fixture", "LimitedController.user");
    private static final RuleId SHADOW = RuleId.of("fixture", "AlgorithmController.fixedWindow");
    private static final int CLIENTS = 10;
    private static final String EXPOSED = "management.endpoints.web.exposure.include=ratelimitadvice";
    private static final String SHOWN = "management.endpoint.ratelimitadvice.show-values=always";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void whatALimitWouldHaveRefusedIsWhatItRefusesWhenTheTrafficIsReplayedAgainstIt() throws Exception {
        whatIfIsReplay(List.of(env.start(EXPOSED, SHOWN), env.start(EXPOSED)));
    }

    /** The same on a Redis Cluster: every key of a rule's demand is in its module's slot. */
    @Test
    void onARedisClusterToo() throws Exception {
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            try {
                apps.add(FixtureApplication.start(FixtureApplication.class, cluster, EXPOSED, SHOWN));
                apps.add(FixtureApplication.start(FixtureApplication.class, cluster, EXPOSED));
                whatIfIsReplay(apps);
            } finally {
                apps.forEach(ConfigurableApplicationContext::close);
            }
        }
    }

    /**
     * In process (the in-process store, no Redis at all): one instance, the rule's declared limit of 50 a day, client
     * i asking 10 i times; what each limit would have refused is what it refuses by arithmetic, and at 50 what was
     * refused.
     */
    @Test
    void inProcessToo() throws Exception {
        ConfigurableApplicationContext app = FixtureApplication.start(FixtureApplication.class,
                RedisServerProcess.freePort(), EXPOSED, "ratelimit.store=memory");
        try {
            HttpProbe instance = new HttpProbe(FixtureApplication.port(app));
            Map<Integer, Integer> refused = send(List.of(instance), "/algorithm/FIXED_WINDOW", "m", 10);
            app.getBean(DemandRecorder.class).flush();

            assertThat(refused.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(150);
            for (int limit = 10; limit <= 110; limit += 10) {
                long clients = 0;
                long requests = 0;
                for (int client = 1; client <= CLIENTS; client++) {
                    clients += 10 * client > limit ? 1 : 0;
                    requests += Math.max(0, 10 * client - limit);
                }
                JsonNode advice = get(instance, "/actuator/ratelimitadvice?rule=" + SHADOW + "&limit=" + limit);
                assertThat(advice.path("requests").asLong()).isEqualTo(550);
                assertThat(advice.path("refusedClients").asLong()).as("clients at %d", limit).isEqualTo(clients);
                assertThat(advice.path("refusedRequests").asLong()).as("requests at %d", limit).isEqualTo(requests);
            }
            assertThat(get(instance, "/actuator/ratelimitadvice?rule=" + SHADOW).path("refusedRequests").asLong())
                    .as("at the limit in force, what it refused").isEqualTo(150);
        } finally {
            app.close();
        }
    }

    /**
     * A {@code countWhen} rule (failed logins, 5 a day): client i fails ceil(i / 3) times and logs in i times, one
     * request at a time, to the two instances in turn. Each success is counted, then given back, and its count is told
     * to the client's next request again: the demand is the failures alone, on one Redis and in process.
     */
    @Test
    void refundedRequestsAreNotDemand() throws Exception {
        refundsLeaveTheDemand(List.of(env.start(EXPOSED), env.start(EXPOSED)));
    }

    @Test
    void refundedRequestsAreNotDemandInProcess() throws Exception {
        ConfigurableApplicationContext app = FixtureApplication.start(FixtureApplication.class,
                RedisServerProcess.freePort(), EXPOSED, "ratelimit.store=memory");
        try {
            refundsLeaveTheDemand(List.of(app));
        } finally {
            app.close();
        }
    }

    private static void refundsLeaveTheDemand(List<ConfigurableApplicationContext> apps) throws Exception {
        RuleId login = RuleId.of("fixture", "LoginController.fixedWindow");
        List<HttpProbe> instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        FailedLogins logins = new FailedLogins(apps);
        int sent = 0;
        for (int client = 1; client <= CLIENTS; client++) {
            int failures = failures(client);
            for (int request = 0; request < client + failures; request++) {
                // Successes and failures alternate while both last; each success's refund is back before the next.
                boolean ok = request % 2 == 0 ? request / 2 < client : request / 2 >= failures;
                long refunds = logins.refundsAnswered();
                int status = instances.get(sent++ % instances.size())
                        .post(LoginController.path(Algorithm.FIXED_WINDOW) + "?usercode=login" + client + "&ok=" + ok)
                        .statusCode();
                assertThat(status).as("client %d, request %d", client, request).isEqualTo(ok ? 200 : 401);
                if (ok) {
                    logins.awaitRefunds(refunds + 1);
                }
            }
        }
        int failuresSent = IntStream.rangeClosed(1, CLIENTS).map(LimitAdviceTest::failures).sum();
        // The in-process store gives back on the request's thread, which may finish after its client has read it.
        Awaitility.await("the refunds' counts taken back").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            apps.forEach(app -> app.getBean(DemandRecorder.class).flush());
            assertThat(advice(instances.get(0), login, 1).path("requests").asLong()).as("requests recorded")
                    .isEqualTo(failuresSent);
        });
        for (int limit = 1; limit <= 5; limit++) {
            JsonNode advice = advice(instances.get(limit % instances.size()), login, limit);
            long refusedRequests = 0;
            long refusedClients = 0;
            for (int client = 1; client <= CLIENTS; client++) {
                refusedRequests += Math.max(0, failures(client) - limit);
                refusedClients += failures(client) > limit ? 1 : 0;
            }
            assertThat(advice.path("clients").asLong()).isEqualTo(CLIENTS);
            assertThat(advice.path("requests").asLong()).isEqualTo(failuresSent);
            assertThat(advice.path("highest").asLong()).isEqualTo(failures(CLIENTS));
            assertThat(advice.path("refusedRequests").asLong()).as("requests at %d", limit).isEqualTo(refusedRequests);
            assertThat(advice.path("refusedClients").asLong()).as("clients at %d", limit).isEqualTo(refusedClients);
        }
    }

    /** Client i's failed logins: at most 4, so that with one success still to give back, none is refused. */
    private static int failures(int client) {
        return (client + 2) / 3;
    }

    /** @param apps two instances: the first shows the clients it names, the second does not */
    private static void whatIfIsReplay(List<ConfigurableApplicationContext> apps) throws Exception {
        ConfigurableApplicationContext shown = apps.get(0);
        List<HttpProbe> instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        SysConfigEditor editor = shown.getBean(SysConfigEditor.class);
        editor.setRuleCount(ENFORCED, "5");
        editor.setRuleCount(SHADOW, "5");
        editor.setRuleMode(SHADOW, RuleMode.SHADOW);
        apps.forEach(app -> app.getBean(RuleSnapshotHolder.class).refresh());

        Map<Integer, Integer> refusedAtFive = send(instances, "/user", "c");
        assertThat(send(instances, "/algorithm/FIXED_WINDOW", "c")).as("shadow mode refuses no one").isEmpty();
        List<Algorithm> others = AlgorithmController.WINDOWED.stream()
                .filter(algorithm -> algorithm != Algorithm.FIXED_WINDOW).toList();
        for (Algorithm algorithm : others) {
            send(instances, AlgorithmController.path(algorithm), "c");
        }
        apps.forEach(app -> app.getBean(DemandRecorder.class).flush());

        // Every rule's requests per window, whatever its algorithm: the refused ones too.
        for (Algorithm algorithm : others) {
            JsonNode windows = get(instances.get(1), "/actuator/ratelimitadvice?rule=fixture.AlgorithmController."
                    + AlgorithmController.methodName(algorithm));
            assertThat(windows.path("algorithm").asString()).isEqualTo(algorithm.name());
            assertRequestsPerWindow(windows.path("perWindow"), 55, Duration.ofDays(1));
        }
        assertRequestsPerWindow(advice(instances.get(0), ENFORCED, 5).path("perWindow"), 55, Duration.ofMinutes(1));
        assertThat(get(instances.get(0), "/actuator/ratelimitadvice").path("others").findValuesAsString("rule"))
                .as("the rules of other algorithms").contains(others.stream()
                        .map(algorithm -> "fixture.AlgorithmController." + AlgorithmController.methodName(algorithm))
                        .toArray(String[]::new));

        Map<RuleId, List<JsonNode>> whatIf = Map.of(ENFORCED, new ArrayList<>(), SHADOW, new ArrayList<>());
        for (RuleId rule : List.of(ENFORCED, SHADOW)) {
            for (int limit = 1; limit <= CLIENTS + 1; limit++) {
                JsonNode advice = advice(instances.get(limit % 2), rule, limit);
                assertThat(advice.path("clients").asLong()).as("client-windows of %s", rule).isEqualTo(CLIENTS);
                assertThat(advice.path("requests").asLong()).as("requests of %s", rule).isEqualTo(55);
                assertThat(advice.path("highest").asLong()).isEqualTo(CLIENTS);
                assertThat(advice.path("suggested").asLong()).isEqualTo(CLIENTS);
                whatIf.get(rule).add(advice);
            }
        }
        JsonNode atFive = advice(instances.get(0), ENFORCED, 5);
        assertThat(atFive.path("refusedRequests").asLong()).as("what the enforced limit refused as it was recorded")
                .isEqualTo(refusedAtFive.values().stream().mapToInt(Integer::intValue).sum());
        assertThat(atFive.path("refusedClients").asLong()).isEqualTo(refusedAtFive.size());
        assertThat(atFive.path("topClients").get(0).path("client").asString()).isEqualTo("USER:c10");
        assertThat(atFive.path("topClients").get(0).path("demand").asLong()).isEqualTo(10);
        assertThat(advice(instances.get(1), ENFORCED, 5).path("topClients").get(0).path("client").asString())
                .as("show-values never, by default").isEqualTo("******");
        JsonNode inForce = get(instances.get(1), "/actuator/ratelimitadvice?rule=" + ENFORCED);
        assertThat(inForce.path("limit").asLong()).as("without a limit, the one in force").isEqualTo(5);
        assertThat(inForce.path("refusedRequests").asLong()).isEqualTo(atFive.path("refusedRequests").asLong());
        JsonNode everyRule = get(instances.get(0), "/actuator/ratelimitadvice");
        for (JsonNode rule : everyRule.path("rules")) {
            if (rule.path("rule").asString().equals(ENFORCED.toString()) || rule.path("rule").asString().equals(SHADOW.toString())) {
                assertThat(rule.path("limit").asLong()).isEqualTo(5);
                assertThat(rule.path("refusedRequests").asLong()).isEqualTo(atFive.path("refusedRequests").asLong());
            } else {
                assertThat(rule.path("requests").asLong()).as("no traffic: %s", rule).isZero();
            }
        }
        assertThat(everyRule.path("rules").findValuesAsString("rule")).as("every fixed-window rule of the app")
                .contains(ENFORCED.toString(), SHADOW.toString()).doesNotContain("fixture.AlgorithmController.slidingWindow");

        for (int limit = 1; limit <= CLIENTS + 1; limit++) {
            editor.setRuleCount(ENFORCED, Integer.toString(limit));
            apps.forEach(app -> app.getBean(RuleSnapshotHolder.class).refresh());
            Map<Integer, Integer> refused = send(instances, "/user", "replay" + limit + "-");
            for (RuleId rule : List.of(ENFORCED, SHADOW)) {
                JsonNode advice = whatIf.get(rule).get(limit - 1);
                assertThat(advice.path("refusedRequests").asLong()).as("requests %s would refuse at %d", rule, limit)
                        .isEqualTo(refused.values().stream().mapToInt(Integer::intValue).sum());
                assertThat(advice.path("refusedClients").asLong()).as("clients %s would refuse at %d", rule, limit)
                        .isEqualTo(refused.size());
            }
        }
    }

    /** Windows of the rule's length, each a multiple of it from the epoch, with every request sent. */
    private static void assertRequestsPerWindow(JsonNode perWindow, long sent, Duration length) {
        assertThat(perWindow.path("requests").asLong()).as("requests of %s", perWindow).isEqualTo(sent);
        long inWindows = 0;
        for (JsonNode window : perWindow.path("windows")) {
            assertThat(Duration.parse(window.path("length").asString())).isEqualTo(length);
            assertThat(Instant.parse(window.path("start").asString()).getEpochSecond() % length.toSeconds()).isZero();
            inWindows += window.path("requests").asLong();
        }
        assertThat(inWindows).isEqualTo(sent);
        assertThat(perWindow.path("busiest").asLong()).isBetween(1L, sent);
    }

    private static JsonNode advice(HttpProbe instance, RuleId rule, int limit) {
        return get(instance, "/actuator/ratelimitadvice?rule=" + rule + "&limit=" + limit);
    }

    private static JsonNode get(HttpProbe instance, String path) {
        var response = instance.get(path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /**
     * Client i (named {@code <prefix><i>}) asks i times, each request to the instances in turn, from 16 threads.
     *
     * @return the requests refused per client that had any
     */
    private static Map<Integer, Integer> send(List<HttpProbe> instances, String path, String prefix) throws Exception {
        return send(instances, path, prefix, 1);
    }

    /** The same, client i asking {@code times} i times. */
    private static Map<Integer, Integer> send(List<HttpProbe> instances, String path, String prefix, int times)
            throws Exception {
        Map<Integer, Integer> refused = new ConcurrentHashMap<>();
        AtomicInteger turn = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int client = 1; client <= CLIENTS; client++) {
                for (int request = 0; request < client * times; request++) {
                    int id = client;
                    sent.add(threads.submit(() -> {
                        HttpProbe instance = instances.get(turn.getAndIncrement() % instances.size());
                        int status = instance.status(path + "?usercode=" + prefix + id);
                        if (status == 429) {
                            refused.merge(id, 1, Integer::sum);
                        } else {
                            assertThat(status).isEqualTo(200);
                        }
                    }));
                }
            }
            for (Future<?> request : sent) {
                request.get();
            }
        } finally {
            threads.shutdownNow();
        }
        return refused;
    }
}
