package dev.ratelimit.interceptor.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the traffic statistics cost Redis: one instance, one module of {@value #RULES} rules, each
 * with allowed and blocked requests in every flush interval of a whole (simulated) day, written with
 * the shipped flush interval. Prints commands per minute and memory per rule-day. A measurement, run
 * on demand with {@code -Dratelimit.measure=true}; it checks only that the day's counts are all there.
 */
@EnabledIfSystemProperty(named = "ratelimit.measure", matches = "true")
class TrafficCostMeasurement {

    private static final int RULES = 10;
    private static final Duration FLUSH_INTERVAL = Duration.ofSeconds(5);

    @Test
    void aDayOfTrafficOfTenRules() {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            long dayStart = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
            ManualClock clock = new ManualClock(dayStart);
            TrafficRecorder recorder = new TrafficRecorder(redis.connection().backgroundWork(), new RedisKeys("ratelimit"), FLUSH_INTERVAL,
                    clock);
            List<LimitDefinition> rules = IntStream.range(0, RULES).mapToObj(i -> new LimitDefinition(RuleId.of("orders",
                    "OrderController.rule" + i), 10, 60, Dimension.USER, Algorithm.FIXED_WINDOW, null,
                    LimitDefinition.DEFAULT_MESSAGE_KEY, "", Penalty.NONE,
                    RequestCost.ONE, CalendarQuota.NONE, "")).toList();
            long memoryBefore = usedMemory(redis);
            long flushes = Duration.ofDays(1).dividedBy(FLUSH_INTERVAL);
            for (long i = 0; i < flushes; i++) {
                rules.forEach(rule -> {
                    recorder.outcome(rule.id(), Outcome.ALLOWED);
                    recorder.outcome(rule.id(), Outcome.BLOCKED);
                });
                clock.advance(FLUSH_INTERVAL.toMillis());
                recorder.flush();
            }
            long commands = redis.calls("hincrby") + redis.calls("expire");
            long memory = usedMemory(redis) - memoryBefore;
            System.out.printf("traffic statistics, 1 instance, %d rules x 2 outcomes active every %s for a day:%n"
                            + "  %d flushes, %d commands = %.1f per minute (%.1f per flush), keys %d%n"
                            + "  memory %d bytes = %.0f bytes per rule-day%n",
                    RULES, FLUSH_INTERVAL, flushes, commands, commands / 1440.0, (double) commands / flushes,
                    redis.commands().dbsize(), memory, (double) memory / RULES);

            for (TrafficGranularity granularity : TrafficGranularity.values()) {
                long bytes = 0;
                long keys = 0;
                for (String key : redis.commands().keys("ratelimit:stats:*:" + granularity.label() + ":*")) {
                    bytes += redis.commands().memoryUsage(key);
                    keys++;
                }
                System.out.printf("  %s: %d buckets a day, %.0f bytes per rule-day, %.0f bytes per rule kept %s%n",
                        granularity.label(), keys, (double) bytes / RULES,
                        (double) bytes / RULES * granularity.retention().toSeconds() / 86_400, granularity.retention());
            }
            long allowed = new TrafficStatistics(redis.connection().backgroundWork(), new RedisKeys("ratelimit"))
                    .read(List.of("orders"), TrafficGranularity.HOUR, Instant.ofEpochMilli(dayStart),
                            Instant.ofEpochMilli(dayStart).plus(Duration.ofDays(1)))
                    .stream().filter(count -> count.outcome() == Outcome.ALLOWED).mapToLong(TrafficCount::count).sum();
            assertThat(allowed).isEqualTo(flushes * RULES);
        }
    }

    private static long usedMemory(RedisServerProcess redis) {
        return redis.commands().info("memory").lines().filter(line -> line.startsWith("used_memory:"))
                .map(line -> Long.parseLong(line.substring("used_memory:".length()).strip())).findFirst().orElseThrow();
    }
}
