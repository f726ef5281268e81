package dev.ratelimit.interceptor.stats;

import dev.ratelimit.interceptor.internal.background.IntervalRedisWriter;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.OutcomeTable;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import io.lettuce.core.RedisFuture;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adds this instance's outcomes per rule to the traffic statistics that every instance shares in
 * Redis ({@link TrafficGranularity}). A request only increments an in-memory counter; every
 * {@code interval} (aligned to the clock, so that an interval never spans two buckets) one background
 * thread writes what was counted since the last write in one pipeline: per module and bucket size one
 * {@code HINCRBY} per rule and outcome that changed, and the bucket's expiry. What a write could not
 * deliver (Redis away) is written with the next one, and what is left when the app stops is written
 * then, once the web server has stopped taking requests and before the Redis connections close: no
 * count is lost while the process lives.
 */
public class TrafficRecorder extends IntervalRedisWriter implements RateLimitMetrics {

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private final OutcomeTable<LongAdder> counts = new OutcomeTable<>((rule, outcome) -> new LongAdder());
    private final Map<Tally, Long> written = new HashMap<>();
    private long intervalStart;

    /** @param interval how often the counts go to Redis; a divisor of 10 s keeps every write in one bucket */
    public TrafficRecorder(BackgroundCommands redis, RedisKeys keys, Duration interval, Clock clock) {
        super("traffic statistics", "keeping the counts for the next write", interval, clock);
        this.redis = redis;
        this.keys = keys;
        this.intervalStart = clock.instant().getEpochSecond();
    }

    @Override
    public void outcome(RuleId rule, Outcome outcome) {
        counts.get(rule, outcome).increment();
    }

    @Override
    public void decided(long nanos) {
        // the statistics count outcomes; latency is Micrometer's
    }

    /** What was counted since the last write; kept for the next when Redis does not take it. */
    @Override
    protected synchronized void write() {
        long bucketTime = intervalStart;
        intervalStart = clock().instant().getEpochSecond();
        Map<Tally, Long> totals = new LinkedHashMap<>();
        Map<Tally, Long> deltas = new LinkedHashMap<>();
        counts.forEach((rule, outcome, adder) -> {
            Tally tally = new Tally(rule, outcome);
            long total = adder.sum();
            long delta = total - written.getOrDefault(tally, 0L);
            if (delta > 0) {
                totals.put(tally, total);
                deltas.put(tally, delta);
            }
        });
        if (deltas.isEmpty()) {
            return;
        }
        redis.pipelined(commands -> {
            List<RedisFuture<?>> replies = new ArrayList<>();
            for (TrafficGranularity granularity : TrafficGranularity.values()) {
                long bucket = granularity.bucketStart(bucketTime);
                Map<String, String> bucketKeys = new HashMap<>();
                deltas.forEach((tally, delta) -> {
                    String key = bucketKeys.computeIfAbsent(tally.rule().module(),
                            module -> keys.trafficBucket(module, granularity.label(), bucket));
                    replies.add(commands.hincrby(key, tally.field(), delta));
                });
                bucketKeys.values().forEach(key -> replies.add(commands.expire(key, granularity.retention().toSeconds())));
            }
            return replies;
        });
        written.putAll(totals);
    }

    /** One rule's count of one outcome. */
    private record Tally(RuleId rule, Outcome outcome) {

        /** The hash field: {@code <rule>|<outcome>}. */
        String field() {
            return rule.rule() + "|" + outcome.tag();
        }
    }
}
