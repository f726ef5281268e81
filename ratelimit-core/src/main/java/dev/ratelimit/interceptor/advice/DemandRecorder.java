package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.internal.background.IntervalRedisWriter;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RedisKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Records, on every instance, the demand each fixed-window rule sees, enforced or in shadow mode, and the requests
 * of every rule per window of its length ({@link RequestWindows}), and adds them to the demand every instance shares ({@link DemandStore}: in Redis, or this process's for the in-process store);
 * {@link LimitAdvisor} reads it.
 *
 * <p>Redis counts a fixed window's denied requests too, so each decision it makes tells the client's count in its
 * window, the {@code n}-th request: across instances every count of a window is told once, and the reaches of
 * each count add up exactly by {@code HINCRBY}, with no state per client ({@link DemandTally}). A hot counter's
 * permits are recorded as they admit requests, each with its count in the window, so that those given back unused
 * or left when the window ends are not demand. A request refused
 * without Redis (the near cache's denials, a penalty's block) is demand too, which no count tells: this instance
 * counts those per client window, beside the highest count Redis gave it, and the reader places them after the
 * highest count any instance saw. Those windows are at most {@code maxRefusedWindows} at once; a refusal past
 * that is not recorded. A request only updates memory: the writes go to the store every {@code interval}, on a
 * thread of their own (for Redis, the background connection), and once more when the app stops.
 */
public class DemandRecorder extends IntervalRedisWriter implements RateLimitMetrics {

    /** Clients this instance notes per rule between two writes. */
    private static final int TOP_NOTED = 256;

    private final DemandStore store;
    private final RedisKeys keys;
    private final int maxRefusedWindows;
    private final ConcurrentHashMap<RuleId, RuleTallies> tallies = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RuleId, RuleWindows> windows = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, RefusedWindow> refused = new ConcurrentHashMap<>();
    /** Windows a counter's next window replaced, still to be written. */
    private final ConcurrentLinkedQueue<Map.Entry<String, RefusedWindow>> ended = new ConcurrentLinkedQueue<>();
    /** Per rule, the clients whose demand reached half the limit, and the highest count each reached. */
    private final ConcurrentHashMap<RuleId, ConcurrentHashMap<String, AtomicLong>> top = new ConcurrentHashMap<>();
    /** Deltas a write could not deliver, for the next. */
    private final Map<RuleId, Map<DemandBin, Long>> unwritten = new HashMap<>();
    private final Map<RuleId, Map<CountedWindow, Long>> unwrittenWindows = new HashMap<>();

    /** @param keys how counter keys name their client ({@code USER:alice}) */
    public DemandRecorder(DemandStore store, RedisKeys keys, Duration interval, int maxRefusedWindows, Clock clock) {
        super("limit advice", "keeping the demand for the next write", interval, clock);
        this.store = store;
        this.keys = keys;
        this.maxRefusedWindows = maxRefusedWindows;
    }

    @Override
    public void outcome(RuleId rule, Outcome outcome) {
        // the outcomes are the traffic statistics'; the demand comes with each decision
    }

    @Override
    public void decided(long nanos) {
        // latency is Micrometer's
    }

    @Override
    public void counted(LimitDefinition limit, String counterKey, Decision decision) {
        RuleWindows ofRule = windows.get(limit.id());
        if (ofRule == null) {
            ofRule = windows.computeIfAbsent(limit.id(), rule -> new RuleWindows());
        }
        // A refusal without the store has no store time: this instance's stands in.
        ofRule.add(Math.floorDiv(decision.decidedAt() > 0 ? decision.decidedAt() : clock().millis(), 1000),
                limit.windowSeconds());
        if (limit.algorithm() != Algorithm.FIXED_WINDOW) {
            return;
        }
        long n = decision.demand();
        if (n <= 0) {
            if (!decision.allowed()) {
                RefusedWindow window = refused.get(counterKey);
                if (window == null) {
                    // The near cache may learn a denial before the request Redis denied is recorded here.
                    window = refusedWindow(limit.id(), counterKey, RefusedWindow.NOT_YET_KNOWN);
                }
                window.withoutRedis.increment();
            }
            return;
        }
        RuleTallies talliesOfRule = tallies.get(limit.id());
        if (talliesOfRule == null) {
            talliesOfRule = tallies.computeIfAbsent(limit.id(), rule -> new RuleTallies());
        }
        // A hot counter's permits are recorded as they are used: each tells its count after the batch's taker's.
        talliesOfRule.forLimit(limit.count()).add(n);
        if (2 * n >= limit.count()) {
            note(limit.id(), counterKey, n);
        }
        if (!decision.allowed()) {
            refusedWindow(limit.id(), counterKey, decision.windowEnd()).highest.accumulateAndGet(n, Math::max);
        }
    }

    /**
     * A refund of a fixed window undid counts its requests reached: they leave the demand, as the requests that
     * reach them again are recorded when they come. A refund that gives back a request after denials of its
     * window undoes the denied requests' counts too (they took no unit): those leave the demand until the client
     * asks again.
     */
    @Override
    public void refunded(LimitDefinition limit, String counterKey, long above, long upTo) {
        if (limit.algorithm() != Algorithm.FIXED_WINDOW || upTo <= above) {
            return;
        }
        RuleTallies talliesOfRule = tallies.computeIfAbsent(limit.id(), rule -> new RuleTallies());
        talliesOfRule.forLimit(limit.count()).takeBack(above, upTo);
    }

    /**
     * Notes a client's count. Without a lock once the client is noted: a hot counter's permits note every count of
     * the upper half of its window, from every request thread at once.
     */
    private void note(RuleId rule, String counterKey, long n) {
        ConcurrentHashMap<String, AtomicLong> noted = top.get(rule);
        if (noted == null) {
            noted = top.computeIfAbsent(rule, any -> new ConcurrentHashMap<>());
        }
        AtomicLong highest = noted.get(counterKey);
        if (highest == null) {
            if (noted.size() >= TOP_NOTED) {
                return;
            }
            highest = noted.computeIfAbsent(counterKey, any -> new AtomicLong());
        }
        if (highest.get() < n) {
            highest.accumulateAndGet(n, Math::max);
        }
    }

    /**
     * The window of the counter that ends at {@code windowEnd} ({@link RefusedWindow#NOT_YET_KNOWN} for a refusal
     * without Redis), kept unless the cap is reached. A window of the counter's that ended is written with the
     * next write.
     */
    private RefusedWindow refusedWindow(RuleId rule, String counterKey, long windowEnd) {
        RefusedWindow window = refused.get(counterKey);
        if (window != null && window.isOrBecomes(windowEnd)) {
            return window;
        }
        if (window == null && refused.size() >= maxRefusedWindows) {
            return new RefusedWindow(rule, windowEnd, clock().millis()); // not kept: the cap holds
        }
        return refused.compute(counterKey, (key, current) -> {
            if (current != null && current.isOrBecomes(windowEnd)) {
                return current;
            }
            if (current != null) {
                ended.add(Map.entry(key, current));
            }
            return new RefusedWindow(rule, windowEnd, clock().millis());
        });
    }

    /** The client windows refused that this instance keeps now, at most {@code maxRefusedWindows}. */
    int refusedWindowsHeld() {
        return refused.size();
    }

    @Override
    protected synchronized void write() {
        Map<RuleId, Map<DemandBin, Long>> bins = new HashMap<>(unwritten);
        unwritten.clear();
        tallies.forEach((rule, ofRule) -> ofRule.drainInto(bins.computeIfAbsent(rule, any -> new HashMap<>())));
        bins.values().removeIf(Map::isEmpty);
        Map<RuleId, Map<String, Long>> noted = new HashMap<>();
        top.forEach((rule, clients) -> {
            Map<String, Long> taken = new HashMap<>();
            clients.keySet().forEach(key -> {
                AtomicLong n = clients.remove(key); // a count noted on it meanwhile is lost: the noted clients are a hint
                if (n != null) {
                    taken.merge(client(rule, key), n.get(), Math::max);
                }
            });
            if (!taken.isEmpty()) {
                noted.put(rule, taken);
            }
        });
        List<Refusals> refusals = refusals();
        Map<RuleId, Map<CountedWindow, Long>> counted = new HashMap<>(unwrittenWindows);
        unwrittenWindows.clear();
        windows.forEach((rule, ofRule) -> ofRule.drainInto(counted.computeIfAbsent(rule, any -> new HashMap<>())));
        counted.values().removeIf(Map::isEmpty);
        DemandStore.DemandWrite write = new DemandStore.DemandWrite(clock().instant().getEpochSecond(), bins, noted,
                refusals.stream().map(refusal -> new DemandStore.RefusedWindow(refusal.window.rule,
                        client(refusal.window.rule, refusal.counterKey) + "|" + refusal.window.windowEnd.get(),
                        refusal.count, refusal.highest)).toList(), counted);
        if (write.isEmpty()) {
            return;
        }
        try {
            store.add(write);
        } catch (RuntimeException e) {
            bins.forEach((rule, deltas) -> unwritten.put(rule, deltas)); // the noted clients are only a hint
            unwrittenWindows.putAll(counted);
            refusals.forEach(Refusals::giveBack);
            throw e;
        }
        refusals.forEach(refusal -> refusal.window.writtenHighest = Math.max(refusal.window.writtenHighest,
                refusal.highest));
    }

    /**
     * The refusals without Redis since the last write, and the windows whose highest count rose: another instance's
     * refusals without Redis follow the highest count any instance saw. The windows over long enough are forgotten.
     */
    private List<Refusals> refusals() {
        long forgetBefore = clock().millis() - Duration.ofMinutes(1).toMillis();
        List<Refusals> taken = new ArrayList<>();
        for (Map.Entry<String, RefusedWindow> old; (old = ended.poll()) != null; ) {
            take(old.getKey(), old.getValue(), taken);
        }
        refused.forEach((counterKey, window) -> {
            if (!take(counterKey, window, taken) && window.endsBefore(forgetBefore)) {
                refused.remove(counterKey, window);
            }
        });
        return taken;
    }

    /** Whether the window has something to write; a window not yet known keeps its refusals until it is. */
    private static boolean take(String counterKey, RefusedWindow window, List<Refusals> taken) {
        if (window.windowEnd.get() == RefusedWindow.NOT_YET_KNOWN) {
            return false;
        }
        long more = window.withoutRedis.sumThenReset();
        long highest = window.highest.get();
        if (more > 0 || highest > window.writtenHighest) {
            taken.add(new Refusals(counterKey, window, more, highest));
            return true;
        }
        return false;
    }

    /** The client a counter key counts: its kind and identity, {@code USER:alice}, without the app and rule. */
    private String client(RuleId rule, String counterKey) {
        String withinModule = keys.counterWithinModule(rule.module(), counterKey);
        return withinModule.substring(withinModule.indexOf(':') + 1);
    }

    /**
     * A rule's tallies, one per layout its limits chose: a rule's limit may differ by client (plans, exceptions)
     * and change at run time; the few layouts those take are kept side by side, found without allocating.
     */
    private static final class RuleTallies {

        private volatile DemandTally[] byLayout = new DemandTally[0];

        DemandTally forLimit(long limit) {
            long exactBelow = DemandBin.exactBelow(limit);
            for (DemandTally tally : byLayout) {
                if (tally.exactBelow() == exactBelow) {
                    return tally;
                }
            }
            synchronized (this) {
                for (DemandTally tally : byLayout) {
                    if (tally.exactBelow() == exactBelow) {
                        return tally;
                    }
                }
                DemandTally tally = new DemandTally(exactBelow);
                DemandTally[] more = Arrays.copyOf(byLayout, byLayout.length + 1);
                more[byLayout.length] = tally;
                byLayout = more;
                return tally;
            }
        }

        void drainInto(Map<DemandBin, Long> bins) {
            for (DemandTally tally : byLayout) {
                tally.drainInto(bins);
            }
        }
    }

    /**
     * A rule's requests per window of its length ({@link CountedWindow}) since the last write, any algorithm's. The
     * window of the latest request is found without allocating; a window is forgotten once two writes found it idle.
     */
    private static final class RuleWindows {

        private final ConcurrentHashMap<CountedWindow, WindowCount> counts = new ConcurrentHashMap<>();
        private volatile @Nullable WindowCount latest;

        void add(long epochSecond, long windowSeconds) {
            long length = Math.max(windowSeconds, DemandGranularity.TEN_MINUTES.shortestWindow());
            WindowCount count = latest;
            if (count == null || !count.holds(epochSecond, length)) {
                count = counts.computeIfAbsent(CountedWindow.holding(epochSecond, length, length), WindowCount::new);
                WindowCount before = latest;
                if (before == null || before.window.start() < count.window.start()) {
                    latest = count;
                }
            }
            count.requests.increment();
        }

        void drainInto(Map<CountedWindow, Long> into) {
            counts.forEach((window, count) -> {
                long requests = count.requests.sumThenReset();
                if (requests > 0) {
                    into.merge(window, requests, Long::sum);
                    count.idle = false;
                } else if (count.idle && count != latest) {
                    counts.remove(window, count);
                } else {
                    count.idle = true;
                }
            });
        }
    }

    private static final class WindowCount {

        final CountedWindow window;
        final LongAdder requests = new LongAdder();
        /** Whether the last write found no request; only the writer's thread reads and writes it. */
        boolean idle;

        WindowCount(CountedWindow window) {
            this.window = window;
        }

        boolean holds(long epochSecond, long length) {
            return window.length() == length && epochSecond >= window.start()
                    && epochSecond - window.start() < length;
        }
    }

    /** A client's window that Redis refused on this instance: the highest count it gave, the refusals without it. */
    private static final class RefusedWindow {

        /** The end of a window whose refusal by Redis is not recorded yet. */
        static final long NOT_YET_KNOWN = Long.MIN_VALUE;

        final RuleId rule;
        final AtomicLong windowEnd;
        final long createdMillis;
        final AtomicLong highest = new AtomicLong();
        final LongAdder withoutRedis = new LongAdder();
        /** The highest count written to Redis; only the writer's thread reads and writes it. */
        long writtenHighest;

        RefusedWindow(RuleId rule, long windowEnd, long createdMillis) {
            this.rule = rule;
            this.windowEnd = new AtomicLong(windowEnd);
            this.createdMillis = createdMillis;
        }

        /** Whether it is the window ending then, or a window not yet known that now is. */
        boolean isOrBecomes(long end) {
            long known = windowEnd.get();
            return known == end || end == NOT_YET_KNOWN
                    || known == NOT_YET_KNOWN && windowEnd.compareAndSet(NOT_YET_KNOWN, end);
        }

        /** A window not yet known ends, for this, a minute after it was noted: its refusals are then dropped. */
        boolean endsBefore(long millis) {
            long known = windowEnd.get();
            return (known == NOT_YET_KNOWN ? createdMillis : known) < millis;
        }
    }

    private record Refusals(String counterKey, RefusedWindow window, long count, long highest) {

        void giveBack() {
            window.withoutRedis.add(count);
        }
    }
}
