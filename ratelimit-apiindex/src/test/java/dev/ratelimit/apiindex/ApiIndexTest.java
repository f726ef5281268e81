package dev.ratelimit.apiindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.apiindex.fixture.FullApi;
import dev.ratelimit.apiindex.fixture.ReducedApi;
import dev.ratelimit.interceptor.collision.CollisionApplication;
import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The API index an app reports at start-up, read back from a real Redis. */
class ApiIndexTest {

    private static final String INDEX = "ratelimit:{apiindex}:fixture";
    private static final String CATALOG = "dev.ratelimit.apiindex.fixture.CatalogController.";
    private static final Set<String> REDUCED_IDS = Set.of("fixture.CatalogController.any",
            "fixture.CatalogController.create", "fixture.CatalogController.invoices", "fixture.CatalogController.list",
            "fixture.CatalogController.show");
    private static final Duration REPORTED = Duration.ofSeconds(30);

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();
    private RedisCommands<String, String> redis;

    @BeforeEach
    void connect() {
        redis = env.redis().commands();
    }

    @Test
    void theIndexDescribesEveryHandlerMethodUnderTheInterceptorsNames() {
        ConfigurableApplicationContext app = env.start(FullApi.class);
        SortedMap<String, ApiIndexEntry> index = awaitIndex(app, fullIds());

        assertThat(index).containsEntry("fixture.CatalogController.list", new ApiIndexEntry("/catalog/items",
                List.of("/catalog/items", "/items"), List.of("GET"), CATALOG + "list()",
                Map.of("fixture.CatalogController.list", plain(5, 60, "USER")), null));
        assertThat(index).containsEntry("fixture.CatalogController.create", new ApiIndexEntry("/items",
                List.of("/items"), List.of("POST"), CATALOG + "create()",
                ordered("fixture.CatalogController.create#user", plain(2, 10, "USER"),
                        "fixture.CatalogController.create#ip", plain(10, 10, "IP")), null));
        assertThat(index).containsEntry("fixture.CatalogController.any", new ApiIndexEntry("/items/any",
                List.of("/items/any"), List.of(), CATALOG + "any()", Map.of(), null));
        assertThat(index).containsEntry("fixture.CatalogController.invoices", new ApiIndexEntry("/invoices",
                List.of("/invoices"), List.of("GET"), CATALOG + "invoices()",
                Map.of("billing.invoices", plain(3, 60, "METHOD")), null));
        assertThat(redis.hget(INDEX, "fixture.CatalogController.show")).isEqualTo(
                "{\"pattern\":\"/items/{id}\",\"patterns\":[\"/items/{id}\"],\"methods\":[\"GET\"],"
                        + "\"handler\":\"" + CATALOG + "show(long)\",\"limits\":{}}");
        assertThat(redis.smembers("ratelimit:{apiindex}:modules")).containsExactly("fixture");
        assertThat(index.keySet()).as("every endpoint of the catalog except the excluded /error")
                .isEqualTo(app.getBean(EndpointCatalog.class).endpoints().stream()
                        .filter(endpoint -> !endpoint.patterns().contains("/error")).map(endpoint -> endpoint.id().toString())
                        .collect(Collectors.toSet()));
    }

    @Test
    void theIndexedRuleNamesAreTheNamesOfTheCountersAndTheConfigFields() {
        ConfigurableApplicationContext app = env.start(FullApi.class);
        SortedMap<String, ApiIndexEntry> index = awaitIndex(app, fullIds());
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        http.get("/catalog/items?usercode=una");
        http.get("/invoices");

        List<String> hit = List.of(index.get("fixture.CatalogController.list").limits().keySet().iterator().next(),
                index.get("fixture.CatalogController.invoices").limits().keySet().iterator().next());
        assertThat(redis.keys("ratelimit:counter:*")).containsExactlyInAnyOrder(
                "ratelimit:counter:" + hit.get(0).replaceFirst("\\.", ":") + ":USER:una",
                "ratelimit:counter:" + hit.get(1).replaceFirst("\\.", ":") + ":METHOD:all");
        Awaitility.await().atMost(REPORTED).untilAsserted(() -> {
            Map<String, String> config = redis.hgetall("ratelimit:sysconfig");
            index.values().forEach(entry -> entry.limits().forEach((rule, limit) -> assertThat(config)
                    .containsEntry(rule + ".count", Long.toString(limit.count()))
                    .containsEntry(rule + ".interval", Long.toString(limit.windowSeconds()))));
        });
    }

    @Test
    void aRestartWithoutAnEndpointRemovesItsEntry() {
        env.stop(awaitStarted(FullApi.class));

        awaitIndex(env.start(ReducedApi.class), REDUCED_IDS);
        assertThat(redis.smembers("ratelimit:{apiindex}:modules")).containsExactly("fixture");
    }

    @Test
    void aReaderNeverSeesAHalfWrittenOrEmptyIndexWhileItIsReplaced() throws Exception {
        ConfigurableApplicationContext app = awaitStarted(FullApi.class);
        ApiIndexReporter reporter = app.getBean(ApiIndexReporter.class);
        ApiIndexRepository reader = app.getBean(ApiIndexRepository.class);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch reading = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        Future<int[]> reads = pool.submit(() -> {
            int[] readsAndBadReads = new int[2];
            reading.countDown();
            while (writing.get()) {
                readsAndBadReads[0]++;
                if (!reader.entries("fixture").keySet().equals(fullIds())) {
                    readsAndBadReads[1]++;
                }
            }
            return readsAndBadReads;
        });
        assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();

        for (int i = 0; i < 300; i++) {
            reporter.report();
        }
        writing.set(false);
        int[] readsAndBadReads = reads.get(30, TimeUnit.SECONDS);
        pool.shutdown();

        System.out.printf("%d reads during 300 re-indexes, %d bad%n", readsAndBadReads[0], readsAndBadReads[1]);
        assertThat(readsAndBadReads[0]).isGreaterThan(100);
        assertThat(readsAndBadReads[1]).isZero();
        assertThat(redis.keys("ratelimit:{apiindex}-staging:*")).isEmpty();
        assertThat(redis.ttl(INDEX)).isEqualTo(-1L);
    }

    @Test
    void anAppStartedWhileRedisIsDownReportsOnceRedisIsBack() {
        env.redis().stop();
        ConfigurableApplicationContext app = env.start(FullApi.class);
        assertThat(new HttpProbe(FixtureApplication.port(app)).status("/items/1")).isEqualTo(200);

        env.redis().restart();

        awaitIndex(app, fullIds());
    }

    /**
     * The index comes back when Redis loses it, not only at start-up: flushed, or restarted without
     * persistence, it is reported again once the instance has put the config hash back (within the 1 s
     * version check); the time from Redis answering again to the index being back is printed.
     */
    @Test
    void theIndexComesBackWhenRedisLosesIt() {
        ConfigurableApplicationContext app = env.start(FullApi.class);
        awaitIndex(app, fullIds());
        Awaitility.await("the app's declarations merged").atMost(REPORTED)
                .until(() -> redis.hexists("ratelimit:sysconfig", "declared.fixture.CatalogController.list.count"));

        for (String loss : List.of("FLUSHALL", "a restart without persistence")) {
            if (loss.equals("FLUSHALL")) {
                redis.flushall();
            } else {
                env.redis().restart();
                redis = env.redis().commands();
            }
            long start = System.nanoTime();
            Awaitility.await("the index back after " + loss).atMost(Duration.ofSeconds(10)).ignoreExceptions()
                    .pollInterval(Duration.ofMillis(10)).until(() -> redis.hkeys(INDEX).size() == fullIds().size()
                            && redis.sismember("ratelimit:{apiindex}:modules", "fixture"));
            System.out.printf("API index back %d ms after %s%n", (System.nanoTime() - start) / 1_000_000, loss);
        }
        assertThat(awaitIndex(app, fullIds()).get("fixture.CatalogController.list").limits())
                .containsKey("fixture.CatalogController.list");
    }

    /**
     * A limited method of a bean that is not a controller, and a rule defined in code, are endpoints of the
     * index too, marked as not HTTP (no pattern, no HTTP methods; the Java method, or the bean that defines
     * the rule), and read back as such; a handler method's entry has no kind.
     */
    @Test
    void callsOfBeanMethodsAndRulesDefinedInCodeAreIndexedAsNotHttp() {
        ConfigurableApplicationContext app = env.start();
        ApiIndexRepository repository = app.getBean(ApiIndexRepository.class);
        Awaitility.await().atMost(REPORTED).ignoreExceptions()
                .until(() -> repository.entries("fixture").containsKey("fixture.PartnerQuota"));

        assertThat(redis.hget("ratelimit:{apiindex}:fixture", "fixture.PartnerClient.queued")).isEqualTo(
                "{\"pattern\":\"\",\"patterns\":[],\"methods\":[],"
                        + "\"handler\":\"dev.ratelimit.interceptor.fixture.PartnerClient.queued(java.lang.String)\","
                        + "\"limits\":{\"fixture.PartnerClient.queued\":{\"count\":5,\"windowSeconds\":2,"
                        + "\"dimension\":\"CUSTOM\",\"algorithm\":\"FIXED_WINDOW\"}},\"kind\":\"method\",\"maxWaitMillis\":3000}");
        assertThat(redis.hget("ratelimit:{apiindex}:fixture", "fixture.PartnerQuota")).isEqualTo(
                "{\"pattern\":\"\",\"patterns\":[],\"methods\":[],\"handler\":\"RateLimitRule bean 'partnerQuota'\","
                        + "\"limits\":{\"fixture.PartnerQuota\":{\"count\":50,\"windowSeconds\":86400,"
                        + "\"dimension\":\"CUSTOM\",\"algorithm\":\"TOKEN_BUCKET\"}},\"kind\":\"code\"}");
        assertThat(redis.hget("ratelimit:{apiindex}:fixture", "fixture.CallingController.countedOnce"))
                .doesNotContain("kind");
        Map<String, Endpoint.Kind> kinds = new TreeMap<>();
        repository.endpoints().stream().filter(endpoint -> !endpoint.isHttp())
                .forEach(endpoint -> kinds.put(endpoint.id().toString(), endpoint.kind()));
        assertThat(kinds).containsEntry("fixture.PartnerClient.queued", Endpoint.Kind.METHOD)
                .containsEntry("fixture.PartnerQuota", Endpoint.Kind.CODE)
                .doesNotContainKey("fixture.CallingController.countedOnce");
    }

    @Test
    void collidingHandlerMethodsHaveAnEntryEach() {
        ConfigurableApplicationContext app = env.start(CollisionApplication.class);

        String a = "dev.ratelimit.interceptor.collision.a.TwinController.";
        String b = "dev.ratelimit.interceptor.collision.b.TwinController.";
        Map<String, String> handlers = new TreeMap<>();
        awaitIndex(app, Set.of("fixture.TwinController.twin", "fixture.TwinController.twin~2",
                "fixture.TwinController.twin~3", "fixture.TwinController.open", "fixture.TwinController.open~2"))
                .forEach((id, entry) -> handlers.put(id, entry.handler()));
        assertThat(handlers).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "fixture.TwinController.open", b + "open()",
                "fixture.TwinController.open~2", b + "open(java.lang.String)",
                "fixture.TwinController.twin", a + "twin()",
                "fixture.TwinController.twin~2", a + "twin(java.lang.String)",
                "fixture.TwinController.twin~3", b + "twin()")));
    }

    private static Set<String> fullIds() {
        Set<String> ids = new HashSet<>(REDUCED_IDS);
        ids.add("fixture.LegacyController.legacy");
        return ids;
    }

    /** Starts an app of the given configuration and waits until it has reported its whole index. */
    private ConfigurableApplicationContext awaitStarted(Class<?> application) {
        ConfigurableApplicationContext app = env.start(application);
        awaitIndex(app, fullIds());
        return app;
    }

    /** Waits until the index holds exactly {@code ids} (the report runs in the background), and returns it. */
    private static SortedMap<String, ApiIndexEntry> awaitIndex(ConfigurableApplicationContext app, Set<String> ids) {
        ApiIndexRepository repository = app.getBean(ApiIndexRepository.class);
        return Awaitility.await().atMost(REPORTED).ignoreExceptions()
                .until(() -> repository.entries("fixture"), index -> index.keySet().equals(ids));
    }

    /** A limit as the index describes it, every knob at its default. */
    private static LimitDescription plain(long count, long windowSeconds, String dimension) {
        return new LimitDescription(count, windowSeconds, dimension, "FIXED_WINDOW", null, null, null, null, null, null);
    }

    private static Map<String, LimitDescription> ordered(String firstRule, LimitDescription first, String secondRule,
                                                         LimitDescription second) {
        Map<String, LimitDescription> limits = new LinkedHashMap<>();
        limits.put(firstRule, first);
        limits.put(secondRule, second);
        return limits;
    }
}
