package dev.ratelimit.interceptor.internal.store.batch;

import java.util.Arrays;

/**
 * The counts of its window that a batch's permits stand for, in the order they are used, as the limit advisor
 * records them: each permit that admits a request tells its count, so that only permits used are demand. Kept as
 * runs of consecutive counts, pairs of first count and length; {@link #UNKNOWN} when the store told no count (an
 * algorithm that does not count requests per window).
 *
 * @param runs first count and length, pair after pair
 */
record PermitCounts(long[] runs) {

    static final PermitCounts UNKNOWN = new PermitCounts(new long[0]);

    /** The permits of a batch whose taker was told {@code takerCount}: the {@code units} counts after it. */
    static PermitCounts after(long takerCount, long units) {
        return takerCount <= 0 ? UNKNOWN : UNKNOWN.then(takerCount + 1, units);
    }

    boolean known() {
        return runs.length > 0;
    }

    /** These, then the {@code length} counts from {@code first}. */
    PermitCounts then(long first, long length) {
        if (length == 0) {
            return this;
        }
        long[] more = Arrays.copyOf(runs, runs.length + 2);
        more[runs.length] = first;
        more[runs.length + 1] = length;
        return new PermitCounts(more);
    }

    /** These, then {@code others}'. */
    PermitCounts then(PermitCounts others) {
        PermitCounts all = this;
        for (int i = 0; i < others.runs.length; i += 2) {
            all = all.then(others.runs[i], others.runs[i + 1]);
        }
        return all;
    }

    /** The count the {@code index}-th permit (from 0) stands for. */
    long at(long index) {
        long rest = index;
        for (int i = 0; i < runs.length; i += 2) {
            if (rest < runs[i + 1]) {
                return runs[i] + rest;
            }
            rest -= runs[i + 1];
        }
        throw new IllegalArgumentException("no permit " + index);
    }

    /** Those of the permits from the {@code index}-th (from 0) on. */
    PermitCounts from(long index) {
        PermitCounts rest = UNKNOWN;
        long skip = index;
        for (int i = 0; i < runs.length; i += 2) {
            long skipped = Math.min(skip, runs[i + 1]);
            skip -= skipped;
            rest = rest.then(runs[i] + skipped, runs[i + 1] - skipped);
        }
        return rest;
    }
}
