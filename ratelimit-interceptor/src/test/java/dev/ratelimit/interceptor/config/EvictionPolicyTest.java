package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** What Redis' {@code maxmemory-policy} says about the config hash, read from real servers set each way. */
@ExtendWith(OutputCaptureExtension.class)
class EvictionPolicyTest {

    private static final String HASH = "ratelimit:sysconfig";

    @Test
    void aVolatilePolicyEvictsCountersOnlyAndIsNotWarnedAbout(CapturedOutput output) {
        try (RedisServerProcess redis = RedisServerProcess.start(List.of("--maxmemory-policy", "volatile-lru"))) {
            EvictionPolicy policy = new EvictionPolicy(redis.connection().backgroundWork(), HASH, Clock.systemUTC());
            policy.check();

            assertThat(policy.current().policy()).isEqualTo("volatile-lru");
            assertThat(policy.current().evictsConfig()).isFalse();
            assertThat(output.getOut()).doesNotContain("maxmemory-policy volatile-lru");
        }
    }

    @Test
    void anAllkeysPolicyIsWarnedAboutOnceNamingItAndWhatItMayEvict(CapturedOutput output) {
        try (RedisServerProcess redis = RedisServerProcess.start(List.of("--maxmemory-policy", "allkeys-lfu"))) {
            EvictionPolicy policy = new EvictionPolicy(redis.connection().backgroundWork(), HASH, Clock.systemUTC());
            policy.check();

            assertThat(policy.current().evictsConfig()).isTrue();
            assertThat(output.getOut()).containsOnlyOnce("Redis runs with maxmemory-policy allkeys-lfu")
                    .contains(HASH).contains("volatile-lru");
        }
    }

    /** A managed Redis that refuses {@code CONFIG}: the reading says so, and nothing fails. */
    @Test
    void aRedisThatRefusesConfigGetIsReportedAsNotRead(CapturedOutput output) {
        try (RedisServerProcess redis = RedisServerProcess.start(List.of("--rename-command", "CONFIG", ""))) {
            EvictionPolicy policy = new EvictionPolicy(redis.connection().backgroundWork(), HASH, Clock.systemUTC());
            policy.check();

            EvictionPolicy.Reading reading = policy.current();
            assertThat(reading.policy()).isNull();
            assertThat(reading.evictsConfig()).isFalse();
            assertThat(reading.problem()).startsWith("CONFIG GET refused");
            assertThat(output.getOut()).contains("Could not read Redis' maxmemory-policy");
        }
    }
}
