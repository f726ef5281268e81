package dev.ratelimit.interceptor.store;

/**
 * How long a client stays denied once its limit denied it , whatever the window: the
 * first block, doubled for each repeat offence up to the longest, or until the algorithm admits again if
 * that is later; offences are forgotten once the client has been free for the longest block.
 *
 * @param firstBlockMillis the first block, 0 for none
 * @param longestMillis    the longest block, at least the first
 */
public record Penalty(long firstBlockMillis, long longestMillis) {

    /** No penalty: a denied client waits for its window only. */
    public static final Penalty NONE = new Penalty(0, 0);

    /** The most offences counted: the block has long stopped growing by then. */
    public static final int MAX_OFFENCES = 64;

    public Penalty {
        if (firstBlockMillis < 0 || longestMillis < firstBlockMillis) {
            throw new IllegalArgumentException("a penalty needs 0 <= first block <= longest block, was "
                    + firstBlockMillis + " ms and " + longestMillis + " ms");
        }
    }

    public boolean applies() {
        return firstBlockMillis > 0;
    }

    /** The block of the {@code offences}-th offence (from 1), as {@code counter_tail.lua} computes it. */
    public long block(int offences) {
        long block = firstBlockMillis;
        for (int i = 2; i <= offences; i++) {
            block = Math.min(block * 2, longestMillis);
        }
        return block;
    }
}
