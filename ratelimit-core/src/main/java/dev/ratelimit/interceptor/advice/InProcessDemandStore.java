package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demand of this process alone, for an app on the in-process store: the same buckets as in Redis, kept as long
 * as there ({@link DemandGranularity#retention()}), each as bounded as there (a bin per count reached, a window per
 * client refused without the store, the top clients cut to {@link RedisDemandStore#TOP_CLIENTS}, the rule's windows
 * no shorter than the granularity's shortest).
 */
public class InProcessDemandStore implements DemandStore {

    private final Clock clock;
    private final Map<Key, Bucket> buckets = new HashMap<>();

    public InProcessDemandStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void add(DemandWrite write) {
        forget();
        for (DemandGranularity granularity : DemandGranularity.values()) {
            long start = granularity.bucketStart(write.epochSecond());
            write.reaches().forEach((rule, reaches) -> reaches.forEach((bin, delta) ->
                    bucket(rule, granularity, start).reaches.merge(bin, delta, Long::sum)));
            write.top().forEach((rule, clients) -> {
                Map<String, Long> top = bucket(rule, granularity, start).top;
                clients.forEach((client, demand) -> top.merge(client, demand, Math::max));
                if (top.size() > RedisDemandStore.TOP_CLIENTS) {
                    List<Map.Entry<String, Long>> kept = top.entrySet().stream()
                            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                            .limit(RedisDemandStore.TOP_CLIENTS).toList();
                    top.clear();
                    kept.forEach(entry -> top.put(entry.getKey(), entry.getValue()));
                }
            });
            write.windows().forEach((rule, windows) -> granularity.windows(windows).forEach((window, requests) ->
                    bucket(rule, granularity, start).windows.merge(window, requests, Long::sum)));
            for (RefusedWindow refused : write.refused()) {
                long[] window = bucket(refused.rule(), granularity, start).refused
                        .computeIfAbsent(refused.window(), any -> new long[2]);
                window[0] += refused.refusals();
                window[1] = Math.max(window[1], refused.highest());
            }
        }
    }

    @Override
    public synchronized List<DemandBucket> read(RuleId rule, DemandGranularity granularity, long firstStart,
                                                long lastStart) {
        List<DemandBucket> read = new ArrayList<>();
        for (long start = firstStart; start <= lastStart; start += granularity.size().toSeconds()) {
            Bucket bucket = buckets.get(new Key(rule, granularity, start));
            if (bucket != null) {
                Map<String, long[]> refused = new HashMap<>();
                bucket.refused.forEach((window, numbers) -> refused.put(window, numbers.clone()));
                read.add(new DemandBucket(Map.copyOf(bucket.reaches), refused, Map.copyOf(bucket.top),
                        Map.copyOf(bucket.windows)));
            }
        }
        return read;
    }

    private Bucket bucket(RuleId rule, DemandGranularity granularity, long start) {
        return buckets.computeIfAbsent(new Key(rule, granularity, start), key -> new Bucket());
    }

    /** The buckets past their retention, as Redis lets them expire. */
    private void forget() {
        long now = clock.instant().getEpochSecond();
        buckets.keySet().removeIf(key -> key.start + key.granularity.size().toSeconds()
                + key.granularity.retention().toSeconds() < now);
    }

    private record Key(RuleId rule, DemandGranularity granularity, long start) {
    }

    private static final class Bucket {
        final Map<DemandBin, Long> reaches = new HashMap<>();
        final Map<String, long[]> refused = new HashMap<>();
        final Map<String, Long> top = new HashMap<>();
        final Map<CountedWindow, Long> windows = new HashMap<>();
    }
}
