package dev.ratelimit.bench;

/** Which counters the requests of a run go to. */
public enum KeySpread {

    /** Every request of every thread on one counter: the contention case. */
    HOT(1),
    /** Requests spread evenly over 10,000 counters, as many users would. */
    SPREAD(10_000);

    /** Every counter key of the benchmarks is this and a number. */
    public static final String KEY_PREFIX = "ratelimit:counter:bench:BenchController.decide:USER:user-";

    private final int keys;

    KeySpread(int keys) {
        this.keys = keys;
    }

    /** The number of distinct counters. */
    public int keys() {
        return keys;
    }

    /** The counter key of index {@code i}, laid out as the interceptor names a USER counter. */
    public static String key(int i) {
        return KEY_PREFIX + i;
    }
}
