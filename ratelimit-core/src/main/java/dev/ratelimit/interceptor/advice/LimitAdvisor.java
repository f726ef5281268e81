package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.RedisKeys;
import io.lettuce.core.ScoredValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the demand every instance records ({@link DemandRecorder}) and says what a limit would have done to it.
 */
public class LimitAdvisor {

    /**
     * The share of client-windows the suggested limit may refuse a request of: the heaviest 1 %. Clients whose
     * demand is far above everyone's are what a limit is for.
     */
    public static final double SUGGESTED_SHARE = 0.01;
    /** Points of the curve at most: one per limit up to that, spread over the range above. */
    static final int CURVE_POINTS = 200;
    private static final int LISTED_CLIENTS = 10;

    private final BackgroundCommands redis;
    private final RedisKeys keys;

    public LimitAdvisor(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
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
        if (since.isNegative() || since.isZero() || since.compareTo(DemandGranularity.HOUR.retention()) > 0) {
            throw new IllegalArgumentException("since must be positive and at most "
                    + DemandGranularity.HOUR.retention().toDays() + " days, was " + since);
        }
        DemandGranularity granularity = DemandGranularity.covering(since);
        long size = granularity.size().toSeconds();
        List<String> buckets = new ArrayList<>();
        for (long start = granularity.bucketStart(now.minus(since).getEpochSecond()); start <= now.getEpochSecond();
             start += size) {
            buckets.add(keys.demandBucket(rule, granularity.label(), start));
        }
        List<Object> replies = redis.pipelined(commands -> buckets.stream()
                .flatMap(key -> java.util.stream.Stream.of(commands.hgetall(key), commands.hgetall(key + ":refused"),
                        commands.zrevrangeWithScores(key + ":top", 0, LISTED_CLIENTS - 1)))
                .toList());
        DemandHistogram histogram = new DemandHistogram();
        Map<String, Long> top = new HashMap<>();
        Map<String, long[]> refusedWindows = new HashMap<>();
        for (int i = 0; i < replies.size(); i += 3) {
            if (replies.get(i) instanceof Map<?, ?> bins) {
                bins.forEach((field, value) -> addBin(histogram, String.valueOf(field), String.valueOf(value)));
            }
            if (replies.get(i + 1) instanceof Map<?, ?> refused) {
                addRefused(refusedWindows, refused);
            }
            if (replies.get(i + 2) instanceof List<?> clients) {
                for (Object scored : clients) {
                    if (scored instanceof ScoredValue<?> client && client.hasValue()) {
                        top.merge(String.valueOf(client.getValue()), (long) client.getScore(), Math::max);
                    }
                }
            }
        }
        refusedWindows.forEach((window, refusalsAndHighest) -> {
            long refusals = refusalsAndHighest[0];
            long highest = refusalsAndHighest[1];
            if (refusals > 0 && highest > 0) {
                histogram.add(highest + 1, highest + 1 + refusals, refusals);
                top.merge(window.substring(0, window.lastIndexOf('|')), highest + refusals, Math::max);
            }
        });
        return advice(rule, since, limit, histogram, top);
    }

    static LimitAdvice advice(RuleId rule, Duration since, long limit, DemandHistogram histogram,
                              Map<String, Long> top) {
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
                histogram.smallestLimitRefusing(SUGGESTED_SHARE), highest, curve, clients);
    }

    /** Fields another version may write, or garbage, are skipped. */
    private static void addBin(DemandHistogram histogram, String field, String value) {
        try {
            histogram.add(DemandBin.parse(field), Long.parseLong(value));
        } catch (IllegalArgumentException e) {
            // not ours
        }
    }

    /**
     * Adds a bucket's refusals without Redis to those of each client window ({@code <client>|<window end>}: the
     * refusals, and the highest count Redis gave it on any instance). They are placed once every bucket is read,
     * after that highest count, one reach of each count from there: the instances write them as they come, so one
     * window's may be in several buckets.
     */
    private static void addRefused(Map<String, long[]> windows, Map<?, ?> fields) {
        fields.forEach((field, value) -> {
            String name = String.valueOf(field);
            boolean highest = name.endsWith("|n");
            String window = highest ? name.substring(0, name.length() - 2) : name;
            if (window.lastIndexOf('|') < 0) {
                return; // not ours
            }
            try {
                long number = Long.parseLong(String.valueOf(value));
                long[] refusalsAndHighest = windows.computeIfAbsent(window, any -> new long[2]);
                if (highest) {
                    refusalsAndHighest[1] = Math.max(refusalsAndHighest[1], number);
                } else {
                    refusalsAndHighest[0] += number;
                }
            } catch (NumberFormatException e) {
                // not ours
            }
        });
    }
}
