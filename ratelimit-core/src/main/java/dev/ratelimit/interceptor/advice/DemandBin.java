package dev.ratelimit.interceptor.advice;

/**
 * A range of demand counts, {@code [start, start + width)}: the bins of a demand histogram. Counts below a
 * rule's exact bound each have a bin of their own; above it, every power of two is split into
 * {@link #SUB_BINS} bins, so a count there is known within 1/64 of itself. Those bins are dyadic intervals (a
 * width that is a power of two and divides the start), so two bins of any two layouts are either disjoint or one
 * holds the other. A run of exact counts reached equally often is one bin too ({@link #run}): a counter that one
 * window after another reaches every count up to thousands (a global counter) is written as a few runs, not a
 * field per count. Whatever the bins of a write, the reaches of each count add up across writes and instances.
 */
record DemandBin(long start, long width) {

    /** Bins per power of two above the exact bound. */
    static final int SUB_BINS = 64;
    /** The exact bound of the smallest limits. */
    static final long MIN_EXACT_BELOW = 64;
    /**
     * The exact bound of the largest limits: it keeps a rule's tally on an instance within 128 KiB (one long per
     * exact count); limits from 8,192 up are exact to 16,384 and within 1/64 above.
     */
    static final long MAX_EXACT_BELOW = 1 << 14;

    DemandBin {
        if (start < 1 || width < 1 || start > Long.MAX_VALUE - width) {
            throw new IllegalArgumentException("not a demand bin: [" + start + ", +" + width + ")");
        }
    }

    /** The exact counts {@code [first, last]}, each reached as often. */
    static DemandBin run(long first, long last) {
        return new DemandBin(first, last - first + 1);
    }

    /** The bound below which counts are exact for a limit: a power of two above twice the limit. */
    static long exactBelow(long limit) {
        long wanted = Math.max(MIN_EXACT_BELOW, Math.min(MAX_EXACT_BELOW, 2 * Math.max(1, limit) + 1));
        return Long.highestOneBit(wanted - 1) << 1;
    }

    /** The bin of count {@code n} (at least 1) in the layout exact below {@code exactBelow}. */
    static DemandBin of(long n, long exactBelow) {
        if (n < exactBelow) {
            return new DemandBin(n, 1);
        }
        long width = Math.max(1, Long.highestOneBit(n) / SUB_BINS);
        return new DemandBin(n - n % width, width);
    }

    long end() {
        return start + width;
    }

    /** The hash field that names it: the start alone for an exact count, {@code <start>+<width>} otherwise. */
    String field() {
        return width == 1 ? Long.toString(start) : start + "+" + width;
    }

    /** The bin a field names. @throws IllegalArgumentException for a field that names none */
    static DemandBin parse(String field) {
        int plus = field.indexOf('+');
        try {
            return plus < 0 ? new DemandBin(Long.parseLong(field), 1)
                    : new DemandBin(Long.parseLong(field, 0, plus, 10), Long.parseLong(field, plus + 1, field.length(), 10));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a demand bin: " + field, e);
        }
    }
}
