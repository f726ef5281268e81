package dev.ratelimit.interceptor.internal.store.batch;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.BatchRequest;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.DecisionListener;
import dev.ratelimit.interceptor.store.ForwardingRateLimitStore;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreDescription;
import dev.ratelimit.interceptor.store.StoreResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A store in front of another that admits the requests of hot counters from batches of permits taken in
 * advance, so that one counter busier than one Redis core can take stays exact: a permit is counted in the
 * store before this instance uses it, so all instances together never admit more than the limit. A counter
 * is hot once this instance asks for it {@code threshold} times a second ({@link HotKeys}); then one of its
 * requests asks the store for a batch besides its own cost, about what the counter's requests here use in
 * {@code batchFor}, never more than the room left over the live instances ({@code sharers}). Permits are
 * void once their window is over, and given back unused ({@link #giveBack}) once held for {@code maxHold},
 * when the limit changes, when an operator resets the counter or changes the rules, and on shutdown: the
 * clients of other instances are refused while permits sit here for at most that long.
 *
 * <p>An instance never holds more than a hundredth of a limit ({@link #PARTS_OF_A_LIMIT}), so a limit under 100
 * is never batched. Only fixed windows, sliding windows and token buckets: a sliding log records each request's
 * time, and a concurrency limit each request's lease. Nor limits with a penalty (a block starts on one instance
 * and must stop every instance at once) or with a cost settled after the response (a debt moves the window),
 * nor counters not {@link CounterRequest#batchable()} (their rules excluded or switched off). A request decided from a batch was counted in
 * the store when the batch was taken, so its refund, settlement or peek goes to the store as any other's.
 */
public class BatchingRateLimitStore extends ForwardingRateLimitStore {

    /**
     * The shipped {@code ratelimit.hot-keys.threshold}. The defaults are declared here, with what they tune, as
     * the text a property takes, so the starter's defaults and this core's tests are one.
     */
    public static final String DEFAULT_THRESHOLD = "200";
    /** The shipped {@code ratelimit.hot-keys.batch-for}. */
    public static final String DEFAULT_BATCH_FOR = "50ms";
    /** The shipped {@code ratelimit.hot-keys.max-hold}. */
    public static final String DEFAULT_MAX_HOLD = "200ms";

    private static final Set<Algorithm> BATCHED = EnumSet.of(Algorithm.FIXED_WINDOW, Algorithm.SLIDING_WINDOW,
            Algorithm.TOKEN_BUCKET);
    /**
     * An instance holds at most this part of a limit: so that the requests another instance refuses while
     * permits wait here are a small part of it. A limit of fewer units than this is never batched.
     */
    static final long PARTS_OF_A_LIMIT = 100;
    /** How many counters the actuator endpoint lists, those holding the most permits first. */
    private static final int LISTED = 20;

    private final IntSupplier sharers;
    private final HotKeys hotKeys;
    private final long threshold;
    private final long batchForNanos;
    private final long maxHoldNanos;
    private final ConcurrentHashMap<String, HotCounter> hot = new ConcurrentHashMap<>();
    private final LongAdder fromBatches = new LongAdder();
    private final LongAdder batchesTaken = new LongAdder();
    private final LongAdder permitsTaken = new LongAdder();
    private final LongAdder permitsGivenBack = new LongAdder();

    /**
     * @param sharers   the live instances of the app, which share every counter
     * @param threshold requests per second on this instance from which a counter is hot
     * @param batchFor  how much of a hot counter's traffic here a batch covers
     * @param maxHold   the longest this instance keeps permits it does not use
     */
    public BatchingRateLimitStore(RateLimitStore delegate, IntSupplier sharers,
                                  long threshold, Duration batchFor, Duration maxHold) {
        super(delegate);
        if (threshold < 1) {
            throw new IllegalArgumentException("ratelimit.hot-keys.threshold must be at least 1, was " + threshold);
        }
        this.sharers = sharers;
        this.hotKeys = new HotKeys(threshold);
        this.threshold = threshold;
        this.batchForNanos = batchFor.toNanos();
        this.maxHoldNanos = maxHold.toNanos();
    }

    @Override
    public StoreResult acquire(List<CounterRequest> requests) {
        HotCounter[] asking = new HotCounter[requests.size()];
        try {
            return acquire(requests, asking);
        } catch (RuntimeException | Error e) {
            // An ask that is never sent must not leave the requests waiting for it waiting forever.
            for (HotCounter counter : asking) {
                if (counter != null) {
                    counter.asked(false);
                }
            }
            throw e;
        }
    }

    private StoreResult acquire(List<CounterRequest> requests, HotCounter[] asking) {
        long now = System.nanoTime();
        Decision[] fromBatch = null;
        BatchRequest[] asks = null;
        int undecided = requests.size();
        List<Integer> waiting = null;
        for (int i = 0; i < requests.size(); i++) {
            CounterRequest request = requests.get(i);
            HotCounter counter = hotCounter(request, now);
            if (counter == null) {
                continue;
            }
            if (fromBatch == null) {
                fromBatch = new Decision[requests.size()];
            }
            PermitBatch batch = usableBatch(counter, request, now);
            if ((batch == null || counter.low(batch.left())) && counter.startAsking()) {
                BatchRequest ask = nextAsk(counter, request, batch);
                if (ask != null) {
                    if (asks == null) {
                        asks = new BatchRequest[requests.size()];
                    }
                    asks[i] = ask;
                    asking[i] = counter;
                    continue;
                }
            }
            Decision taken = fromBatch(batch, request, now);
            if (taken != null) {
                fromBatch[i] = taken;
                undecided--;
            } else if (counter.asking()) {
                if (waiting == null) {
                    waiting = new ArrayList<>(1);
                }
                waiting.add(i);
            }
        }
        if (fromBatch == null) {
            return delegate.acquire(requests);
        }
        // A request that asks for a batch never waits for another's: two could wait for each other.
        for (int w = 0; waiting != null && w < waiting.size() && asks == null; w++) {
            int i = waiting.get(w);
            CounterRequest request = requests.get(i);
            HotCounter counter = hot.get(request.key());
            if (counter == null) {
                continue; // cooled meanwhile: the store decides it
            }
            boolean answered = counter.awaitBatch();
            Decision taken = fromCounterBatch(counter, request);
            if (taken == null && answered && counter.startAsking()) {
                // The batch it waited for had nothing left for it: it asks for the next one with the call it makes
                // anyway, rather than one call each for every request that waited in vain.
                BatchRequest ask = nextAsk(counter, request, usableBatch(counter, request, System.nanoTime()));
                if (ask != null) {
                    asks = new BatchRequest[requests.size()];
                    asks[i] = ask;
                    asking[i] = counter;
                }
                continue;
            }
            if (taken == null && answered) {
                // Another request asks for the next one: waited for too, once, not for every batch to come.
                counter.awaitBatch();
                taken = fromCounterBatch(counter, request);
            }
            if (taken != null) {
                fromBatch[i] = taken;
                undecided--;
            }
        }
        return undecided == 0 ? new StoreResult.Decided(List.of(fromBatch))
                : merge(requests, asks, fromBatch, asking, now);
    }

    /**
     * What {@code request}, having won the ask of {@code counter}, asks for besides its cost: about what the
     * counter's requests here use in {@code batchFor}, within what an instance may hold; {@code null} when that is
     * nothing (the ask is over then, and a counter holding no permit has cooled).
     */
    private @Nullable BatchRequest nextAsk(HotCounter counter, CounterRequest request, @Nullable PermitBatch batch) {
        long held = batch == null ? 0 : batch.left();
        // The clock read again: the request may have waited for the ask since it read it, and a reading older
        // than the last ask would make the rate since then look boundless.
        long units = Math.min(counter.nextBatch(System.nanoTime(), batchForNanos, threshold),
                request.count() / PARTS_OF_A_LIMIT - held);
        if (units > 0) {
            return new BatchRequest(units, Math.max(1, sharers.getAsInt()), held);
        }
        counter.asked(true);
        if (held == 0) {
            cooled(request.key(), counter);
        }
        return null;
    }

    /**
     * Asks the store for what no batch decided (with the batches {@code asks} asks for, by index), and takes the
     * batches it gave.
     */
    private StoreResult merge(List<CounterRequest> requests, BatchRequest @Nullable [] asks, Decision[] fromBatch,
                              HotCounter[] asking, long sentAt) {
        List<CounterRequest> toStore = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            if (fromBatch[i] == null) {
                toStore.add(asking[i] != null
                        ? requests.get(i).withBatch(Objects.requireNonNull(asks, "an asking request's ask is in asks")[i])
                        : requests.get(i));
            }
        }
        StoreResult result = null;
        try {
            result = delegate.acquire(toStore);
        } finally {
            List<Decision> decisions = result instanceof StoreResult.Decided decided ? decided.decisions() : null;
            int next = 0;
            for (int i = 0; i < requests.size(); i++) {
                Decision decision = fromBatch[i] != null || decisions == null ? fromBatch[i] : decisions.get(next++);
                if (asking[i] != null) {
                    if (decision != null && decision.allowed() && decision.batch().units() > 0) {
                        decision = take(asking[i], requests.get(i), decision, sentAt);
                    } else if (decision != null && !decision.allowed()) {
                        // It asked while permits were left here; the room Redis has not is what this instance holds.
                        Decision held = fromCounterBatch(asking[i], requests.get(i));
                        decision = held == null ? decision : held;
                    }
                    asking[i].asked(decisions != null);
                    asking[i] = null;
                }
                fromBatch[i] = decision;
            }
        }
        return result instanceof StoreResult.NotDecided ? result : new StoreResult.Decided(List.of(fromBatch));
    }

    /** The request's cost from the counter's batch as it is now, if it has that much; else {@code null}. */
    private @Nullable Decision fromCounterBatch(HotCounter counter, CounterRequest request) {
        return fromBatch(counter.batch.get(), request, System.nanoTime());
    }

    /** The request's cost taken from {@code batch}, if it serves the request and has that much; else {@code null}. */
    private @Nullable Decision fromBatch(@Nullable PermitBatch batch, CounterRequest request, long now) {
        Decision taken = batch == null || !batch.serves(request) ? null : batch.take(request.cost(), now);
        if (taken != null) {
            fromBatches.increment();
        }
        return taken;
    }

    /** The hot counter of a request that may be batched, {@code null} for one that is not (yet) hot. */
    private @Nullable HotCounter hotCounter(CounterRequest request, long now) {
        if (!BATCHED.contains(request.algorithm()) || request.penalty().applies() || request.settled()
                || request.batch() != null || request.count() < PARTS_OF_A_LIMIT || !request.batchable()) {
            return null;
        }
        HotCounter counter = hot.get(request.key());
        if (counter == null) {
            if (!hotKeys.hit(request.key(), now)) {
                return null;
            }
            counter = hot.computeIfAbsent(request.key(), key -> new HotCounter(now, hotKeys.perTick()));
        }
        counter.seen(now);
        return counter;
    }

    /** The counter's batch if it serves this request now; one that does not (over, or another limit) goes back. */
    private @Nullable PermitBatch usableBatch(HotCounter counter, CounterRequest request, long now) {
        PermitBatch batch = counter.batch.get();
        if (batch != null && (!batch.goodAt(now) || !batch.serves(request))) {
            giveBack(counter, batch, request.count());
            return null;
        }
        return batch;
    }

    /**
     * Holds the permits a decision took for the counter: with the permits left of its batch if they belong to
     * the same window (they become one batch, those left used first), else in place of them (which go back). What
     * the request is told: the decision, but that a request of cost 1 that took a batch while permits were left
     * tells the lowest count they stand for, and its own goes to the batch, so that the counts the permits used tell
     * the limit advisor are always the window's lowest.
     */
    private Decision take(HotCounter counter, CounterRequest request, Decision decision, long sentAt) {
        long own = decision.batch().units();
        counter.took(own);
        batchesTaken.increment();
        permitsTaken.add(own);
        PermitBatch old = counter.batch.get();
        long carried = 0;
        PermitCounts counts = PermitCounts.after(decision.demand(), own);
        Decision told = decision;
        if (old != null && old.window == decision.batch().window() && old.serves(request)) {
            carried = old.drain();
            PermitCounts left = old.countsOfLast(carried);
            if (carried > 0 && (!left.known() || !counts.known())) {
                counts = PermitCounts.UNKNOWN;
            } else if (carried > 0 && request.cost() == 1) {
                told = new Decision(decision.allowed(), decision.count(), decision.remaining(),
                        decision.retryAfterMillis(), decision.resetMillis(), decision.decidedAt(), decision.batch(),
                        left.at(0));
                counts = left.from(1).then(decision.demand(), own + 1);
            } else if (carried > 0) {
                counts = left.then(counts);
            }
        } else if (old != null) {
            giveBack(counter, old, request.count());
        }
        long goodFor = Math.min(decision.batch().goodForMillis() * 1_000_000, maxHoldNanos);
        PermitBatch fresh = new PermitBatch(request, decision, carried + own, counts, sentAt + goodFor, sentAt);
        counter.batch.set(fresh);
        if (counter.retired()) {
            giveBack(counter, fresh); // retired meanwhile: its sweep may have missed this batch
        }
        return told;
    }

    /**
     * Gives back the permits of a batch that no request may use any more, under the limit in force now
     * ({@code limit}), which may differ from the batch's.
     */
    private void giveBack(HotCounter counter, PermitBatch batch, long limit) {
        counter.batch.compareAndSet(batch, null);
        long unused = batch.drain();
        if (unused > 0) {
            permitsGivenBack.add(unused);
            delegate.refund(List.of(batch.refund(unused, limit)));
        }
    }

    private void giveBack(HotCounter counter, PermitBatch batch) {
        giveBack(counter, batch, batch.request.count());
    }

    /**
     * {@code listener}, told the denials of counters hot here as lasting {@code maxHold} at most: any instance
     * may give back permits of such a counter within that time, so a denial remembered longer ({@link
     * dev.ratelimit.interceptor.internal.store.nearcache.NearCache}) could refuse them until the window ends. Not told at
     * all a denial of a counter this instance still holds permits of: those permits are the room Redis lacks.
     */
    public DecisionListener shorteningDenials(DecisionListener listener) {
        long maxHoldMillis = maxHoldNanos / 1_000_000;
        return (request, decision, sentAtNanos) -> {
            HotCounter counter = decision.allowed() ? null : hot.get(request.key());
            PermitBatch held = counter == null ? null : counter.batch.get();
            if (held != null && held.left() > 0) {
                return; // refused while this instance holds permits of the counter: they are its room, to be used
            }
            if (counter != null && decision.retryAfterMillis() > maxHoldMillis) {
                listener.decided(request, new Decision(false, decision.count(), decision.remaining(), maxHoldMillis,
                        decision.resetMillis(), decision.decidedAt(), decision.batch(), decision.demand()), sentAtNanos);
            } else {
                listener.decided(request, decision, sentAtNanos);
            }
        };
    }

    private void cooled(String key, HotCounter counter) {
        counter.retire();
        hot.remove(key, counter);
        PermitBatch batch = counter.batch.get();
        if (batch != null) {
            giveBack(counter, batch);
        }
    }

    /**
     * Gives back the permits held past their time, and forgets the counters no request asked for since:
     * called every tick ({@link HeldPermits}).
     */
    public void giveBackExpired() {
        long now = System.nanoTime();
        hot.forEach((key, counter) -> {
            PermitBatch batch = counter.batch.get();
            if (batch != null && !batch.goodAt(now)) {
                giveBack(counter, batch);
            }
            if (counter.quietFor(maxHoldNanos, now) && !counter.asking()) {
                cooled(key, counter);
            }
        });
    }

    /** Gives back every permit held: the rules changed, or the app stops. */
    public void giveBackAll() {
        hot.forEach(this::cooled);
    }

    /** Gives back the permits of one counter, which an operator reset: they are void. */
    @Override
    public void counterReset(String counterKey) {
        HotCounter counter = hot.get(counterKey);
        if (counter != null) {
            cooled(counterKey, counter);
        }
        delegate.counterReset(counterKey);
    }

    /**
     * Forgets every hot counter, giving back its permits: a refund changes nothing in a window that is no longer
     * the counter's, so the permits are void once the counter in Redis is deleted too.
     */
    @Override
    public void allCountersReset() {
        giveBackAll();
        delegate.allCountersReset();
    }

    /** The counters batched now. */
    public int batchedCounters() {
        return hot.size();
    }

    /** The permits this instance holds now, unused. */
    public long permitsHeld() {
        long held = 0;
        for (HotCounter counter : hot.values()) {
            PermitBatch batch = counter.batch.get();
            held += batch == null ? 0 : batch.left();
        }
        return held;
    }

    @Override
    public StoreDescription describe() {
        long now = System.nanoTime();
        List<Map<String, Object>> counters = new ArrayList<>();
        hot.forEach((key, counter) -> {
            PermitBatch batch = counter.batch.get();
            Map<String, Object> held = new LinkedHashMap<>();
            held.put("key", key);
            held.put("permits", batch == null ? 0 : batch.left());
            held.put("goodForMillis", batch == null ? 0 : Math.max(0, (batch.goodUntilNanos - now) / 1_000_000));
            counters.add(held);
        });
        counters.sort(Comparator.comparingLong((Map<String, Object> held) -> (Long) held.get("permits")).reversed());
        Map<String, Object> hotKeys = new LinkedHashMap<>();
        hotKeys.put("threshold", threshold);
        hotKeys.put("batchFor", Duration.ofNanos(batchForNanos).toString());
        hotKeys.put("maxHold", Duration.ofNanos(maxHoldNanos).toString());
        hotKeys.put("sharers", sharers.getAsInt());
        hotKeys.put("batchedCounters", hot.size());
        hotKeys.put("permitsHeld", permitsHeld());
        hotKeys.put("decidedFromBatches", fromBatches.sum());
        hotKeys.put("batchesTaken", batchesTaken.sum());
        hotKeys.put("permitsTaken", permitsTaken.sum());
        hotKeys.put("permitsGivenBack", permitsGivenBack.sum());
        hotKeys.put("counters", counters.subList(0, Math.min(LISTED, counters.size())));
        return delegate.describe().with("hotKeys", hotKeys);
    }
}
