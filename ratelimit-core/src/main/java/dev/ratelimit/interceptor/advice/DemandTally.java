package dev.ratelimit.interceptor.advice;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One rule's reaches on this instance since the last write, per {@link DemandBin} of one layout (the limits whose
 * exact bound is the same share it): a request that was the client's {@code n}-th in its window adds one to the bin of {@code n}. A slot
 * per exact count and per bin above them, so recording allocates nothing and the memory is bounded whatever
 * the number of clients.
 */
final class DemandTally {

    private final long exactBelow;
    private final int firstCoarseOctave;
    private final AtomicLongArray exact;
    private final AtomicLongArray coarse;

    /** @param exactBelow the bound of the exact counts ({@link DemandBin#exactBelow}), a power of two */
    DemandTally(long exactBelow) {
        this.exactBelow = exactBelow;
        this.firstCoarseOctave = Long.numberOfTrailingZeros(exactBelow);
        this.exact = new AtomicLongArray((int) exactBelow);
        this.coarse = new AtomicLongArray((Long.SIZE - 1 - firstCoarseOctave) * DemandBin.SUB_BINS);
    }

    long exactBelow() {
        return exactBelow;
    }

    /** The {@code n}-th request of a client's window (at least 1). */
    void add(long n) {
        if (n < exactBelow) {
            exact.incrementAndGet((int) n);
        } else {
            coarse.incrementAndGet(coarseSlot(n));
        }
    }

    /**
     * Takes back one reach of each count in {@code (above, upTo]}: a refund undid them, and the client's next
     * requests of the window are told them again. A count whose reach was written already goes below zero here,
     * which the write adds to the store as it adds the reaches.
     */
    void takeBack(long above, long upTo) {
        long from = Math.max(1, above + 1);
        for (long n = from; n <= Math.min(upTo, exactBelow - 1); n++) {
            exact.decrementAndGet((int) n);
        }
        // Above the exact bound, a slot at a time: a window far past its limit undoes many counts at once.
        for (long n = Math.max(from, exactBelow); n <= upTo; ) {
            int slot = coarseSlot(n);
            long width = Long.highestOneBit(n) / DemandBin.SUB_BINS;
            long slotEnd = Long.highestOneBit(n) + ((n - Long.highestOneBit(n)) / width + 1) * width - 1;
            long last = Math.min(upTo, slotEnd);
            coarse.addAndGet(slot, -(last - n + 1));
            n = last + 1;
        }
    }

    private int coarseSlot(long n) {
        int octave = Long.SIZE - 1 - Long.numberOfLeadingZeros(n);
        long width = Long.highestOneBit(n) / DemandBin.SUB_BINS;
        return (octave - firstCoarseOctave) * DemandBin.SUB_BINS + (int) ((n - Long.highestOneBit(n)) / width);
    }

    /**
     * Takes what was counted since the last time into {@code into}, by bin; adds to what it holds. Consecutive
     * exact counts reached as often are one run: a bin's value is the reaches of all its counts.
     */
    void drainInto(Map<DemandBin, Long> into) {
        long runStart = 0;
        long runReaches = 0;
        for (int n = 1; n <= exact.length(); n++) {
            long reaches = n < exact.length() && exact.get(n) != 0 ? exact.getAndSet(n, 0) : 0;
            if (runReaches != 0 && reaches != runReaches) {
                into.merge(DemandBin.run(runStart, n - 1), runReaches * (n - runStart), Long::sum);
                runReaches = 0;
            }
            if (reaches != 0 && runReaches == 0) {
                runStart = n;
                runReaches = reaches;
            }
        }
        for (int slot = 0; slot < coarse.length(); slot++) {
            if (coarse.get(slot) != 0) {
                int octave = firstCoarseOctave + slot / DemandBin.SUB_BINS;
                long width = (1L << octave) / DemandBin.SUB_BINS;
                long start = (1L << octave) + (slot % DemandBin.SUB_BINS) * width;
                into.merge(new DemandBin(start, width), coarse.getAndSet(slot, 0), Long::sum);
            }
        }
    }
}
