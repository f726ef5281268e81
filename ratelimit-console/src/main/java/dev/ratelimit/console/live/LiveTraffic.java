package dev.ratelimit.console.live;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.instance.InstanceDirectory;
import dev.ratelimit.interceptor.instance.RunningInstance;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.stats.TrafficCount;
import dev.ratelimit.interceptor.stats.TrafficGranularity;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds the overview's live view from the statistics every instance shares in Redis, so that every
 * console instance shows the same. The newest bucket shown is the last complete one: the instances
 * write theirs at its end.
 */
public class LiveTraffic {

    /** The span of the live charts. */
    static final Duration SPAN = Duration.ofHours(1);
    /** The span of "now" in the top rules. */
    static final int RECENT = 5;
    static final int TOP_RULES = 10;
    private static final TrafficGranularity STEP = TrafficGranularity.TEN_SECONDS;
    private static final Set<Outcome> CHARTED = EnumSet.of(Outcome.ALLOWED, Outcome.BLOCKED, Outcome.SHADOW_BLOCKED);

    private final TrafficStatistics statistics;
    private final InstanceDirectory instances;
    private final ApiIndexRepository index;
    private final Clock clock;

    public LiveTraffic(TrafficStatistics statistics, InstanceDirectory instances, ApiIndexRepository index,
                       Clock clock) {
        this.statistics = statistics;
        this.instances = instances;
        this.index = index;
        this.clock = clock;
    }

    /** Every module's traffic and instances. */
    public LiveView now() {
        return view(null, null);
    }

    /** One rule's traffic, and the instances of its module. */
    public LiveView rule(String module, String rule) {
        return view(module, rule);
    }

    private LiveView view(String onlyModule, String onlyRule) {
        Instant at = clock.instant();
        long step = STEP.size().toSeconds();
        Instant to = Instant.ofEpochSecond(STEP.bucketStart(at.getEpochSecond()));
        Instant from = to.minus(SPAN);
        List<Long> times = new ArrayList<>();
        for (Instant bucket = from; bucket.isBefore(to); bucket = bucket.plusSeconds(step)) {
            times.add(bucket.toEpochMilli());
        }
        try {
            List<RunningInstance> running = instances.all().stream()
                    .filter(instance -> onlyModule == null || instance.module().equals(onlyModule)).toList();
            SortedSet<String> modules = new TreeSet<>(onlyModule == null ? index.modules() : List.of(onlyModule));
            running.forEach(instance -> modules.add(instance.module()));
            List<TrafficCount> counts = statistics.read(modules, STEP, from, to).stream()
                    .filter(count -> onlyRule == null || count.rule().equals(onlyRule)).toList();
            Map<String, Series> perModule = new TreeMap<>();
            modules.forEach(module -> perModule.put(module, new Series(times.size())));
            Series total = new Series(times.size());
            Map<TrafficCount.Rule, Series> recent = new HashMap<>();
            Instant recentFrom = to.minus(Duration.ofMinutes(RECENT));
            for (TrafficCount count : counts) {
                int slot = (int) ((count.bucket().getEpochSecond() - from.getEpochSecond()) / step);
                total.add(slot, count.outcome(), count.count());
                perModule.get(count.module()).add(slot, count.outcome(), count.count());
                if (!count.bucket().isBefore(recentFrom)) {
                    recent.computeIfAbsent(count.ofRule(), rule -> new Series(1)).add(0, count.outcome(), count.count());
                }
            }
            List<LiveView.ModuleRates> moduleRates = perModule.entrySet().stream()
                    .map(module -> new LiveView.ModuleRates(module.getKey(), module.getValue().rates(step))).toList();
            List<LiveView.RuleNow> topRules = recent.entrySet().stream()
                    .map(rule -> new LiveView.RuleNow(rule.getKey().id(), rule.getKey().module(), rule.getKey().name(),
                            rule.getValue().at(0, Outcome.ALLOWED),
                            rule.getValue().at(0, Outcome.BLOCKED), rule.getValue().at(0, Outcome.SHADOW_BLOCKED)))
                    .sorted(Comparator.comparingLong(LiveView.RuleNow::blocked)
                            .thenComparingLong(LiveView.RuleNow::shadowBlocked).reversed()
                            .thenComparing(LiveView.RuleNow::rule))
                    .limit(TOP_RULES).toList();
            return new LiveView(at, (int) step, times, total.rates(step), moduleRates, topRules, running, null);
        } catch (RuntimeException e) {
            Series none = new Series(times.size());
            return new LiveView(at, (int) step, times, none.rates(step), List.of(), List.of(), List.of(),
                    e.getClass().getSimpleName());
        }
    }

    /** Counts of the outcomes that pass or block, per bucket; the others are not charted. */
    private static final class Series {

        private final Map<Outcome, long[]> counts = new EnumMap<>(Outcome.class);

        Series(int buckets) {
            for (Outcome outcome : CHARTED) {
                counts.put(outcome, new long[buckets]);
            }
        }

        void add(int slot, Outcome outcome, long count) {
            long[] buckets = counts.get(outcome);
            if (buckets != null && slot >= 0 && slot < buckets.length) {
                buckets[slot] += count;
            }
        }

        long at(int slot, Outcome outcome) {
            return counts.get(outcome)[slot];
        }

        LiveView.Rates rates(long stepSeconds) {
            return new LiveView.Rates(perSecond(counts.get(Outcome.ALLOWED), stepSeconds),
                    perSecond(counts.get(Outcome.BLOCKED), stepSeconds),
                    perSecond(counts.get(Outcome.SHADOW_BLOCKED), stepSeconds));
        }

        private static List<Double> perSecond(long[] counts, long stepSeconds) {
            List<Double> rates = new ArrayList<>(counts.length);
            for (long count : counts) {
                rates.add(Math.round(count * 100.0 / stepSeconds) / 100.0);
            }
            return rates;
        }
    }
}
