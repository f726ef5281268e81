package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ConfigHashLimitsContract;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.LimitKindsContract;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The limiter in apps that serve requests on virtual threads ({@code spring.threads.virtual.enabled},
 * Java 21 and later): two instances on one Redis, 64 concurrent clients, every algorithm and every kind
 * of limit exact. On Java 17 there are no virtual threads, and the class is skipped.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsTest implements LimitKindsContract, ConfigHashLimitsContract {

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;
    private static List<HttpProbe> instances;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        first = FixtureApplication.start(redis.port(), "spring.threads.virtual.enabled=true");
        second = FixtureApplication.start(redis.port(), "spring.threads.virtual.enabled=true");
        instances = List.of(new HttpProbe(FixtureApplication.port(first)), new HttpProbe(FixtureApplication.port(second)));
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        redis.close();
    }

    @Test
    void requestsAreServedByVirtualThreads() {
        instances.forEach(instance -> assertThat(instance.get("/thread").body()).startsWith("VirtualThread"));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void admitsExactlyTheLimitAcrossInstances(Algorithm algorithm) throws Exception {
        int admitted = ConcurrentClients.admitted(64, 5, thread -> TwoInstanceConcurrencyTest.admitted(
                instances.get(thread % 2), AlgorithmController.path(algorithm) + "?usercode=racer"));

        assertThat(admitted).isEqualTo(AlgorithmController.LIMIT);
    }

    @Override
    public List<ConfigurableApplicationContext> apps() {
        return List.of(first, second);
    }
}
