package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the demand every instance records ({@link DemandRecorder}) from its {@link DemandStore} and says what a
 * limit would have done to it.
 */
public class LimitAdvisor {

    /**
     * The share of client-windows the suggested limit may refuse a request of: the heaviest 1 %. Clients whose
     * demand is far above everyone's are what a limit is for.
     */
    public static final double SUGGESTED_SHARE = 0.01;
    /** Points of the curve at most: one per limit up to that, spread over the range above. */
    static final int CURVE_POINTS = 200;
    /** The clients an advice names. */
    static final int LISTED_CLIENTS = 10;

    private final DemandStore store;

    public LimitAdvisor(DemandStore store) {
        this.store = store;
    }

    /**
     * What {@code limit} would have refused of {@code rule}'s demand from {@code since} ago until {@code now}.
     *
     * @throws IllegalArgumentException for a limit under 1 or a period not positive or longer than the demand kept
     */
    public LimitAdvice advise(RuleId rule, long limit, Duration since, Instant now) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        List<DemandStore.DemandBucket> buckets = read(rule, since, now);
        DemandHistogram histogram = new DemandHistogram();
        Map<String, Long> top = new HashMap<>();
        Map<String, long[]> refusedWindows = new HashMap<>();
        for (DemandStore.DemandBucket bucket : buckets) {
            bucket.reaches().forEach(histogram::add);
            bucket.top().forEach((client, demand) -> top.merge(client, demand, Math::max));
            // One window's refusals may be in several buckets: the instances write them as they come.
            bucket.refused().forEach((window, refusalsAndHighest) -> {
                long[] total = refusedWindows.computeIfAbsent(window, any -> new long[2]);
                total[0] += refusalsAndHighest[0];
                total[1] = Math.max(total[1], refusalsAndHighest[1]);
            });
        }
        // After the highest count the store gave a window on any instance, one reach of each count from there.
        refusedWindows.forEach((window, refusalsAndHighest) -> {
            long refusals = refusalsAndHighest[0];
            long highest = refusalsAndHighest[1];
            int bar = window.lastIndexOf('|');
            if (refusals > 0 && highest > 0 && bar > 0) {
                histogram.add(highest + 1, highest + 1 + refusals, refusals);
                top.merge(window.substring(0, bar), highest + refusals, Math::max);
            }
        });
        return advice(rule, since, limit, histogram, top, windows(buckets));
    }

    /**
     * The requests of {@code rule} per window of its length from {@code since} ago until {@code now}, whatever its
     * algorithm.
     *
     * @throws IllegalArgumentException for a period not positive or longer than the demand kept
     */
    public RequestWindows windows(RuleId rule, Duration since, Instant now) {
        return windows(read(rule, since, now));
    }

    private List<DemandStore.DemandBucket> read(RuleId rule, Duration since, Instant now) {
        if (since.isNegative() || since.isZero() || since.compareTo(DemandGranularity.HOUR.retention()) > 0) {
            throw new IllegalArgumentException("since must be positive and at most "
                    + DemandGranularity.HOUR.retention().toDays() + " days, was " + since);
        }
        DemandGranularity granularity = DemandGranularity.covering(since);
        return store.read(rule, granularity, granularity.bucketStart(now.minus(since).getEpochSecond()),
                now.getEpochSecond());
    }

    /** One window may be in two buckets (the instances write as they go); past {@link RequestWindows#SHOWN}, peaks. */
    static RequestWindows windows(List<DemandStore.DemandBucket> buckets) {
        Map<CountedWindow, Long> requests = new TreeMap<>(Comparator.comparingLong(CountedWindow::start)
                .thenComparingLong(CountedWindow::length));
        buckets.forEach(bucket -> bucket.windows().forEach((window, count) -> requests.merge(window, count, Long::sum)));
        long total = requests.values().stream().mapToLong(Long::longValue).sum();
        long busiest = requests.values().stream().mapToLong(Long::longValue).max().orElse(0);
        List<Map.Entry<CountedWindow, Long>> all = new ArrayList<>(requests.entrySet());
        int group = Math.max(1, (all.size() + RequestWindows.SHOWN - 1) / RequestWindows.SHOWN);
        List<RequestWindows.Window> shown = new ArrayList<>();
        for (int first = 0; first < all.size(); first += group) {
            Map.Entry<CountedWindow, Long> peak = all.subList(first, Math.min(all.size(), first + group)).stream()
                    .max(Map.Entry.comparingByValue()).orElseThrow();
            shown.add(new RequestWindows.Window(Instant.ofEpochSecond(peak.getKey().start()),
                    Duration.ofSeconds(peak.getKey().length()), peak.getValue()));
        }
        return new RequestWindows(total, busiest, shown);
    }

    static LimitAdvice advice(RuleId rule, Duration since, long limit, DemandHistogram histogram,
                              Map<String, Long> top, RequestWindows windows) {
        long highest = histogram.highest();
        List<LimitAdvice.Point> curve = new ArrayList<>();
        long last = Math.max(highest, limit) + 1;
        long step = Math.max(1, last / CURVE_POINTS);
        for (long candidate = 1; candidate <= last; candidate += step) {
            curve.add(new LimitAdvice.Point(candidate, histogram.refusedClients(candidate),
                    histogram.refusedRequests(candidate)));
        }
        List<LimitAdvice.Client> clients = top.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(LISTED_CLIENTS).map(entry -> new LimitAdvice.Client(entry.getKey(), entry.getValue())).toList();
        return new LimitAdvice(rule, since, limit, histogram.clients(), histogram.requests(),
                histogram.refusedClients(limit), histogram.refusedRequests(limit),
                histogram.smallestLimitRefusing(SUGGESTED_SHARE), highest, curve, clients, windows);
    }
}
