package dev.ratelimit.interceptor.blocked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Who is blocked now, across instances, and Unblock. */
class BlockedClientsTest {

    private static final Duration UNBLOCKED_EVERYWHERE = Duration.ofSeconds(1);

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void aClientBlockedOnTwoInstancesIsListedOnceUntilItsWindowEndsAndUnblockFreesItOnBothWithinASecond() {
        List<ConfigurableApplicationContext> apps = List.of(env.start(), env.start());
        List<HttpProbe> instances = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=blocked-one";
        for (int i = 0; i < AlgorithmController.LIMIT; i++) {
            assertThat(instances.get(i % 2).status(path)).isEqualTo(200);
        }
        for (HttpProbe instance : instances) {
            assertThat(instance.status(path)).isEqualTo(429);
            assertThat(instance.status(path)).as("now refused by the near cache too").isEqualTo(429);
        }
        BlockedClients blocked = blockedClients();

        List<BlockedClient> listed = await("the block listed").until(() -> blocked.now(List.of("fixture"), 100),
                clients -> !clients.isEmpty());
        for (HttpProbe instance : instances) {
            assertThat(instance.status(path)).as("a refusal noted, not yet written").isEqualTo(429);
        }
        assertThat(listed).singleElement().satisfies(client -> {
            assertThat(client.ruleId()).hasToString("fixture.AlgorithmController.fixedWindow");
            assertThat(client.dimension()).isEqualTo("USER");
            assertThat(client.identity()).isEqualTo("blocked-one");
            assertThat(client.until()).isAfter(Instant.now().plus(Duration.ofHours(1)))
                    .isBefore(Instant.now().plus(Duration.ofDays(1)).plusSeconds(1));
        });

        assertThat(blocked.unblock("fixture", listed.get(0).member())).isTrue();

        apps.forEach(app -> app.getBean(BlockedClientRecorder.class).flush());
        assertThat(blocked.now(List.of("fixture"), 100)).as("refusals from before the unblock").isEmpty();
        for (HttpProbe instance : instances) {
            await("admitted again").atMost(UNBLOCKED_EVERYWHERE).until(() -> instance.status(path) == 200);
        }
    }

    @Test
    void aClientRefusedAgainAfterItsUnblockIsListedAgain() {
        ConfigurableApplicationContext app = env.start();
        HttpProbe instance = new HttpProbe(FixtureApplication.port(app));
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=again";
        for (int i = 0; i <= AlgorithmController.LIMIT; i++) {
            instance.status(path);
        }
        BlockedClientRecorder recorder = app.getBean(BlockedClientRecorder.class);
        recorder.flush();
        BlockedClients blocked = blockedClients();
        assertThat(blocked.unblock("fixture", blocked.now(List.of("fixture"), 100).get(0).member())).isTrue();
        await("admitted again").atMost(UNBLOCKED_EVERYWHERE).until(() -> instance.status(path) == 200);

        for (int i = 1; i <= AlgorithmController.LIMIT; i++) {
            instance.status(path);
        }
        recorder.flush();

        assertThat(blocked.now(List.of("fixture"), 100)).extracting(BlockedClient::identity).containsExactly("again");
    }

    @Test
    void aBlockNotedWhileRedisIsAwayIsListedOnceRedisIsBack() {
        ConfigurableApplicationContext app = env.start();
        HttpProbe instance = new HttpProbe(FixtureApplication.port(app));
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=outage";
        for (int i = 0; i <= AlgorithmController.LIMIT; i++) {
            instance.status(path);
        }
        BlockedClientRecorder recorder = app.getBean(BlockedClientRecorder.class);
        env.redis().stop();

        recorder.flush();
        env.redis().restart();

        // The limiter's own connection is back within its probe interval; each write until then keeps what it had.
        await("listed once the limiter's connection is back").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> {
                    recorder.flush();
                    assertThat(blockedClients().now(List.of("fixture"), 100)).extracting(BlockedClient::identity)
                            .containsExactly("outage");
                });
    }

    @Test
    void anInvalidMemberIsRefused() {
        assertThatThrownBy(() -> blockedClients().unblock("fixture", "no-colons")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFloodOfIdentitiesKeepsTheListWithinItsBound() {
        ConfigurableApplicationContext app = env.start("ratelimit.stats.max-blocked-clients=10");
        HttpProbe instance = new HttpProbe(FixtureApplication.port(app));
        for (int user = 0; user < 30; user++) {
            for (int request = 0; request < 3; request++) {
                instance.status("/stacked?usercode=flood-" + user);
            }
        }
        BlockedClientRecorder recorder = app.getBean(BlockedClientRecorder.class);

        recorder.flush();

        List<BlockedClient> listed = blockedClients().now(List.of("fixture"), 100);
        assertThat(listed).hasSizeBetween(1, 10)
                .allSatisfy(client -> assertThat(client.identity()).startsWith("flood-"));
        assertThat(env.redis().commands().zcard("ratelimit:blocked:{fixture}")).isLessThanOrEqualTo(10);
    }

    private BlockedClients blockedClients() {
        RedisKeys keys = new RedisKeys("ratelimit");
        return new BlockedClients(env.redis().connection().backgroundWork(), keys,
                new SysConfigRepository(env.redis().connection().backgroundWork(), keys),
                Clock.systemUTC());
    }
}
