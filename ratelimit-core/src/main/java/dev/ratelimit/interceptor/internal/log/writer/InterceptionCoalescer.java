package dev.ratelimit.interceptor.internal.log.writer;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The interceptions waiting to be written, identical ones merged: the same module, rule, user, address,
 * method, URI, limit and mode within one window become one row with a count of hits. One client
 * refused 50,000 times a second is then one row a second, not 50,000. Request threads only look up
 * their entry and add one to it; at most {@code capacity} entries wait at once, and an interception
 * that would need one more is refused (and counted by the caller). A row's time is its first
 * interception's, and rows are taken in the order their first interceptions came, so that a log's ids
 * follow its times within one write.
 */
final class InterceptionCoalescer {

    private final ConcurrentHashMap<Sameness, Pending> pending = new ConcurrentHashMap<>();
    /** Entries in the map or about to be: counted apart from it, so that concurrent callers never pass the capacity. */
    private final AtomicInteger entries = new AtomicInteger();
    /** Numbers each new entry in the order it came. */
    private final AtomicLong arrivals = new AtomicLong();
    private final int capacity;
    private final long windowNanos;

    InterceptionCoalescer(int capacity, long windowNanos) {
        this.capacity = capacity;
        this.windowNanos = windowNanos;
    }

    /** @return false when it could not be taken: {@code capacity} other interceptions are waiting */
    boolean offer(Interception interception, long nowNanos) {
        Sameness key = Sameness.of(interception);
        while (true) {
            Pending waiting = pending.get(key);
            if (waiting != null) {
                if (waiting.hit()) {
                    return true;
                }
                remove(key, waiting); // taken by the writer a moment ago: start the next row
                continue;
            }
            if (entries.incrementAndGet() > capacity) {
                entries.decrementAndGet();
                return false;
            }
            if (pending.putIfAbsent(key, new Pending(interception, nowNanos, arrivals.incrementAndGet())) == null) {
                return true;
            }
            entries.decrementAndGet(); // another caller made the entry first: add to it
        }
    }

    /** Takes the entries whose window has ended. */
    List<Coalesced> due(long nowNanos) {
        return take(nowNanos, false);
    }

    /** Takes every entry, ended or not: at shutdown. */
    List<Coalesced> all() {
        return take(0, true);
    }

    /** Entries waiting now. */
    int size() {
        return entries.get();
    }

    private void remove(Sameness key, Pending waiting) {
        if (pending.remove(key, waiting)) {
            entries.decrementAndGet();
        }
    }

    private List<Coalesced> take(long nowNanos, boolean all) {
        List<Coalesced> taken = new ArrayList<>();
        for (Map.Entry<Sameness, Pending> entry : pending.entrySet()) {
            Pending waiting = entry.getValue();
            if (all || nowNanos - waiting.firstNanos >= windowNanos) {
                long hits = waiting.close();
                remove(entry.getKey(), waiting);
                if (hits > 0) {
                    taken.add(new Coalesced(waiting.first, hits, waiting.arrival));
                }
            }
        }
        taken.sort(Comparator.comparingLong(Coalesced::arrival));
        return taken;
    }

    /**
     * The first interception of a row, with the number of identical ones it stands for.
     *
     * @param arrival the row's place among the rows of its coalescer, in the order they came
     */
    record Coalesced(Interception first, long hits, long arrival) {
    }

    /** What makes two interceptions one row: all but the time. */
    private record Sameness(RuleId rule, @Nullable String user, @Nullable String ip, String httpMethod,
                            String uri, Dimension dimension, long limitCount, long windowSeconds, boolean shadow,
                            Interception.Reason reason) {

        static Sameness of(Interception i) {
            return new Sameness(i.rule(), i.user(), i.ip(), i.httpMethod(), i.uri(), i.dimension(),
                    i.limitCount(), i.windowSeconds(), i.shadow(), i.reason());
        }
    }

    /** One row being counted; closed (negative) once the writer took it, so no hit is added after that. */
    private static final class Pending {

        private static final long CLOSED = -1;

        final Interception first;
        final long firstNanos;
        final long arrival;
        private final AtomicLong hits = new AtomicLong(1);

        Pending(Interception first, long firstNanos, long arrival) {
            this.first = first;
            this.firstNanos = firstNanos;
            this.arrival = arrival;
        }

        boolean hit() {
            long current;
            do {
                current = hits.get();
                if (current == CLOSED) {
                    return false;
                }
            } while (!hits.compareAndSet(current, current + 1));
            return true;
        }

        /** @return the hits counted, or 0 when another caller closed it first */
        long close() {
            long counted = hits.getAndSet(CLOSED);
            return counted == CLOSED ? 0 : counted;
        }
    }
}
