package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Penalty;

/**
 * {@code counter_tail.lua} in process: the block a counter's client is serving and its offences. Not
 * thread-safe, like the counter state it goes with.
 */
final class PenaltyState {

    private long blockedUntil;
    private int offences;
    private long expiresAt = Long.MIN_VALUE;

    /** The denial while a block lasts, else {@code null}: the algorithm decides. */
    Decision blocked(long now, long limit) {
        if (blockedUntil <= now) {
            return null;
        }
        long left = blockedUntil - now;
        return new Decision(false, limit, 0, left, left, now);
    }

    /**
     * Starts a block after the algorithm's denial, and says how long it lasts: the block, or the
     * algorithm's own wait if that is longer.
     */
    Decision offended(Decision denial, long now, Penalty penalty) {
        if (now - blockedUntil >= penalty.longestMillis()) {
            offences = 0;
        }
        offences = Math.min(offences + 1, Penalty.MAX_OFFENCES);
        long wait = Math.max(penalty.block(offences), denial.retryAfterMillis());
        blockedUntil = now + wait;
        expiresAt = blockedUntil + penalty.longestMillis();
        return new Decision(false, denial.count(), denial.remaining(), wait, Math.max(denial.resetMillis(), wait), now);
    }

    /** Whether it is as good as absent: the moment the penalty hash's TTL would end. */
    boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
