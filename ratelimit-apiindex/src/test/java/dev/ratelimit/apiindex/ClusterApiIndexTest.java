package dev.ratelimit.apiindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.apiindex.fixture.FullApi;
import dev.ratelimit.apiindex.fixture.ReducedApi;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisClusterProcess;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The API index on a real Redis Cluster: written, replaced with an atomic RENAME, and read back. */
class ClusterApiIndexTest {

    private static final Set<String> REDUCED_IDS = Set.of("fixture.CatalogController.any",
            "fixture.CatalogController.create", "fixture.CatalogController.invoices", "fixture.CatalogController.list",
            "fixture.CatalogController.show");
    private static final Duration REPORTED = Duration.ofSeconds(30);
    private static final RedisKeys KEYS = new RedisKeys("ratelimit");

    private static RedisClusterProcess cluster;

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void theIndexKeysShareOneSlotWhateverTheModule() {
        int slot = cluster.slotOf(KEYS.apiIndexModules());

        assertThat(Set.of("fixture", "orders", "billing-service", "a{b}c")).allSatisfy(module -> {
            assertThat(cluster.slotOf(KEYS.apiIndex(module))).as("index of %s", module).isEqualTo(slot);
            assertThat(cluster.slotOf(KEYS.apiIndexStaging(module, "token"))).as("staging of %s", module).isEqualTo(slot);
        });
    }

    @Test
    void anIndexIsWrittenReplacedAndReadBack() {
        Set<String> fullIds = new HashSet<>(REDUCED_IDS);
        fullIds.add("fixture.LegacyController.legacy");
        ConfigurableApplicationContext full = FixtureApplication.start(FullApi.class, cluster);
        try {
            awaitIndex(full, fullIds);
        } finally {
            full.close();
        }

        ConfigurableApplicationContext reduced = FixtureApplication.start(ReducedApi.class, cluster);
        try {
            awaitIndex(reduced, REDUCED_IDS);
            assertThat(reduced.getBean(ApiIndexRepository.class).modules()).containsExactly("fixture");
            assertThat(cluster.commands().keys("ratelimit:{apiindex}-staging:*")).isEmpty();
            assertThat(cluster.commands().ttl(KEYS.apiIndex("fixture"))).isEqualTo(-1L);
        } finally {
            reduced.close();
        }
    }

    private static SortedMap<String, ApiIndexEntry> awaitIndex(ConfigurableApplicationContext app, Set<String> ids) {
        ApiIndexRepository repository = app.getBean(ApiIndexRepository.class);
        return Awaitility.await().atMost(REPORTED).ignoreExceptions()
                .until(() -> repository.entries("fixture"), index -> index.keySet().equals(ids));
    }
}
