package dev.ratelimit.bench.local;

import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A single-counter limiter library used per key, as an app would have to: one limiter per counter,
 * found by its key in a concurrent map (made in advance, so the runs measure the decision, not the
 * creation), like our store finds its counters.
 */
final class KeyedLimiter<T> implements Limiter {

    private final String[] keyNames;
    private final ConcurrentHashMap<String, T> limiters = new ConcurrentHashMap<>();
    private final Predicate<T> acquire;

    KeyedLimiter(int keys, Supplier<T> factory, Predicate<T> acquire) {
        this.acquire = acquire;
        keyNames = new String[keys];
        for (int i = 0; i < keys; i++) {
            keyNames[i] = KeySpread.key(i);
            limiters.put(keyNames[i], factory.get());
        }
    }

    @Override
    public boolean tryAcquire(int key) {
        return acquire.test(limiters.get(keyNames[key]));
    }

    @Override
    public Object heldState() {
        return limiters;
    }
}
