package dev.ratelimit.bench;

/** One contender as the benchmarks drive it: decide one request on one of its counters. */
public interface Limiter extends AutoCloseable {

    /** Counts a request against counter {@code key} (an index) and says whether it is admitted. */
    boolean tryAcquire(int key);

    /** What the contender keeps in this process for its counters, for measuring its memory. */
    default Object heldState() {
        return this;
    }

    /** Releases the contender's clients; the default has none of its own. */
    @Override
    default void close() {
    }
}
