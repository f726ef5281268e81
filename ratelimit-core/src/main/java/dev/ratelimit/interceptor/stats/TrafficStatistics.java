package dev.ratelimit.interceptor.stats;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads the traffic statistics that every instance writes ({@link TrafficRecorder}). */
public class TrafficStatistics {

    /** The most buckets one read covers per module: a day of minutes, a quarter of hours. */
    public static final int MAX_BUCKETS = 2_208;

    private final BackgroundCommands redis;
    private final RedisKeys keys;

    public TrafficStatistics(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * The counts of the buckets that start in {@code [from, to)}, in one pipelined read.
     *
     * @throws IllegalArgumentException for a range of more than {@link #MAX_BUCKETS} buckets
     */
    public List<TrafficCount> read(Collection<String> modules, TrafficGranularity granularity, Instant from,
                                   Instant to) {
        long size = granularity.size().toSeconds();
        long first = granularity.bucketStart(from.getEpochSecond());
        long end = to.getEpochSecond();
        if ((end - first) / size > MAX_BUCKETS) {
            throw new IllegalArgumentException("a read covers at most " + MAX_BUCKETS + " buckets of "
                    + granularity.label() + ", asked for " + from + " to " + to);
        }
        List<Bucket> buckets = new ArrayList<>();
        for (String module : modules) {
            for (long start = first; start < end; start += size) {
                buckets.add(new Bucket(module, start));
            }
        }
        if (buckets.isEmpty()) {
            return List.of();
        }
        List<Object> hashes = redis.pipelined(commands -> buckets.stream().map(bucket -> commands.hgetall(
                keys.trafficBucket(bucket.module(), granularity.label(), bucket.start()))).toList());
        List<TrafficCount> counts = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            if (hashes.get(i) instanceof Map<?, ?> fields) {
                Bucket bucket = buckets.get(i);
                fields.forEach((field, value) -> add(counts, bucket, String.valueOf(field), String.valueOf(value)));
            }
        }
        return counts;
    }

    /** Fields another version may write, or garbage, are skipped. */
    private static void add(List<TrafficCount> counts, Bucket bucket, String field, String value) {
        int bar = field.lastIndexOf('|');
        if (bar <= 0) {
            return;
        }
        try {
            Outcome outcome = Outcome.valueOf(field.substring(bar + 1).toUpperCase(Locale.ROOT));
            counts.add(new TrafficCount(RuleId.of(bucket.module(), field.substring(0, bar)), outcome,
                    Instant.ofEpochSecond(bucket.start()), Long.parseLong(value)));
        } catch (IllegalArgumentException e) {
            // not ours
        }
    }

    private record Bucket(String module, long start) {
    }
}
