package dev.ratelimit.interceptor.internal.instance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Every running instance is listed with its state; a stopped one leaves at once, a killed one within its TTL. */
class InstanceDirectoryTest {

    /** The shipped {@code ratelimit.stats.heartbeat-interval}, three of which make the TTL. */
    private static final Duration TTL = Duration.ofSeconds(15);

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void twoInstancesAreListedWithTheirStateAndAStoppedOneLeavesAtOnce() {
        ConfigurableApplicationContext first = env.start();
        ConfigurableApplicationContext second = env.start();
        InstanceDirectory directory = directory();

        // The first heartbeat may come before the start merged the declarations into the hash (version 0).
        await("both instances listed, each with the config it applies").until(() -> directory.of("fixture").size() == 2
                && directory.of("fixture").stream().allMatch(instance -> instance.configVersion() > 0));
        List<RunningInstance> instances = directory.all();
        assertThat(instances).extracting(RunningInstance::port).containsExactlyInAnyOrder(
                FixtureApplication.port(first), FixtureApplication.port(second));
        assertThat(instances).allSatisfy(instance -> {
            assertThat(instance.module()).isEqualTo("fixture");
            assertThat(instance.circuit()).isEqualTo("closed");
            assertThat(instance.store()).isEqualTo("redis");
            assertThat(instance.nearCache()).isZero();
            assertThat(instance.configVersion()).isPositive();
            assertThat(instance.pid()).isEqualTo(ProcessHandle.current().pid());
        });

        env.stop(first);

        assertThat(directory.all()).extracting(RunningInstance::port).containsExactly(FixtureApplication.port(second));
    }

    @Test
    void aKilledInstanceDisappearsWithinItsTtl() throws Exception {
        ChildApp child = ChildApp.start(env.redis().port());
        try {
            InstanceDirectory directory = directory();
            await("the child listed").until(() -> directory.all().stream()
                    .anyMatch(instance -> instance.port() == child.port()));

            child.kill();

            await("the killed child gone").atMost(TTL.plusSeconds(1)).until(() -> directory.all().stream()
                    .noneMatch(instance -> instance.port() == child.port()));
        } finally {
            child.close();
        }
    }

    private InstanceDirectory directory() {
        return new InstanceDirectory(env.redis().connection().backgroundWork(), new RedisKeys("ratelimit"));
    }
}
