package dev.ratelimit.console.live;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.internal.instance.InstanceDirectory;
import dev.ratelimit.interceptor.internal.instance.RunningInstance;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.stats.TrafficCount;
import dev.ratelimit.interceptor.stats.TrafficGranularity;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import java.math.BigDecimal;
import java.math.MathContext;
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

    /** The span of "now" in the top rules, whatever the charts' span. */
    static final Duration RECENT = Duration.ofMinutes(5);
    static final int TOP_RULES = 10;
    private static final TrafficGranularity RECENT_STEP = TrafficGranularity.TEN_SECONDS;
    private static final MathContext RATE_PRECISION = new MathContext(6);
    private static final Set<Outcome> CHARTED = EnumSet.of(Outcome.ALLOWED, Outcome.BLOCKED, Outcome.SHADOW_BLOCKED,
            Outcome.DENIED);

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
    public LiveView now(LiveSpan span) {
        return view(span, null);
    }

    /** One rule's traffic, and the instances of its module. */
    public LiveView rule(LiveSpan span, RuleId rule) {
        return view(span, rule);
    }

    private LiveView view(LiveSpan span, RuleId onlyRule) {
        String onlyModule = onlyRule == null ? null : onlyRule.module();
        Instant at = clock.instant();
        TrafficGranularity granularity = span.step();
        long step = granularity.size().toSeconds();
        long current = granularity.bucketStart(at.getEpochSecond());
        // Minutes and hours are shown as far as they go (a rate over the seconds elapsed): an hour's
        // traffic must not wait for the hour's end. Ten seconds wait for their end, which is near.
        boolean partial = granularity != RECENT_STEP;
        Instant to = Instant.ofEpochSecond(partial ? current + step : current);
        long lastSeconds = partial ? Math.max(1, at.getEpochSecond() - current) : step;
        Instant from = to.minus(span.length());
        List<Long> times = new ArrayList<>();
        for (Instant bucket = from; bucket.isBefore(to); bucket = bucket.plusSeconds(step)) {
            times.add(bucket.toEpochMilli());
        }
        try {
            List<RunningInstance> running = instances.all().stream()
                    .filter(instance -> onlyModule == null || instance.module().equals(onlyModule)).toList();
            SortedSet<String> modules = new TreeSet<>(onlyModule == null ? index.modules() : List.of(onlyModule));
            running.forEach(instance -> modules.add(instance.module()));
            List<TrafficCount> counts = statistics.read(modules, granularity, from, to).stream()
                    .filter(count -> onlyRule == null || count.rule().equals(onlyRule)).toList();
            Instant recentTo = Instant.ofEpochSecond(RECENT_STEP.bucketStart(at.getEpochSecond()));
            Instant recentFrom = recentTo.minus(RECENT);
            List<TrafficCount> recentCounts = granularity == RECENT_STEP ? counts
                    : statistics.read(modules, RECENT_STEP, recentFrom, recentTo).stream()
                    .filter(count -> onlyRule == null || count.rule().equals(onlyRule)).toList();
            Map<String, Series> perModule = new TreeMap<>();
            modules.forEach(module -> perModule.put(module, new Series(times.size())));
            Series total = new Series(times.size());
            for (TrafficCount count : counts) {
                int slot = (int) ((count.bucket().getEpochSecond() - from.getEpochSecond()) / step);
                total.add(slot, count.outcome(), count.count());
                perModule.get(count.rule().module()).add(slot, count.outcome(), count.count());
            }
            Map<RuleId, Series> recent = new HashMap<>();
            for (TrafficCount count : recentCounts) {
                if (!count.bucket().isBefore(recentFrom)) {
                    recent.computeIfAbsent(count.rule(), rule -> new Series(1)).add(0, count.outcome(), count.count());
                }
            }
            List<LiveView.ModuleRates> moduleRates = perModule.entrySet().stream()
                    .map(module -> new LiveView.ModuleRates(module.getKey(), module.getValue().rates(step, lastSeconds))).toList();
            List<LiveView.RuleNow> topRules = recent.entrySet().stream()
                    .map(rule -> new LiveView.RuleNow(rule.getKey().toString(), rule.getKey().module(), rule.getKey().rule(),
                            rule.getValue().at(0, Outcome.ALLOWED),
                            rule.getValue().at(0, Outcome.BLOCKED), rule.getValue().at(0, Outcome.SHADOW_BLOCKED),
                            rule.getValue().at(0, Outcome.DENIED)))
                    .sorted(Comparator.comparingLong((LiveView.RuleNow now) -> now.blocked() + now.denied())
                            .thenComparingLong(LiveView.RuleNow::shadowBlocked).reversed()
                            .thenComparing(LiveView.RuleNow::rule))
                    .limit(TOP_RULES).toList();
            return new LiveView(at, span.label(), (int) step, times, total.rates(step, lastSeconds), moduleRates, topRules, running,
                    null);
        } catch (RuntimeException e) {
            Series none = new Series(times.size());
            return new LiveView(at, span.label(), (int) step, times, none.rates(step, lastSeconds), List.of(), List.of(), List.of(),
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

        /** @param lastSeconds the seconds the newest bucket covers so far */
        LiveView.Rates rates(long stepSeconds, long lastSeconds) {
            return new LiveView.Rates(perSecond(counts.get(Outcome.ALLOWED), stepSeconds, lastSeconds),
                    perSecond(counts.get(Outcome.BLOCKED), stepSeconds, lastSeconds),
                    perSecond(counts.get(Outcome.SHADOW_BLOCKED), stepSeconds, lastSeconds),
                    perSecond(counts.get(Outcome.DENIED), stepSeconds, lastSeconds));
        }

        private static List<Double> perSecond(long[] counts, long stepSeconds, long lastSeconds) {
            List<Double> rates = new ArrayList<>(counts.length);
            for (int i = 0; i < counts.length; i++) {
                long seconds = i == counts.length - 1 ? lastSeconds : stepSeconds;
                // Significant digits, not decimals: one request an hour is 0.000278/s, not 0.
                rates.add(new BigDecimal(counts[i]).divide(BigDecimal.valueOf(seconds), RATE_PRECISION).doubleValue());
            }
            return rates;
        }
    }
}
