package dev.ratelimit.interceptor.store.memory;

import dev.ratelimit.interceptor.store.Batch;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.Penalty;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * {@code counter_tail.lua} in process: the block a counter's client is serving, its offences, and the units
 * of its requests still running that their responses may give back or settle (pending), by the time they
 * were reserved. Not thread-safe, like the counter state it goes with.
 */
final class PenaltyState {

    private long blockedUntil;
    private int offences;
    private long expiresAt = Long.MIN_VALUE;
    private final TreeMap<Long, Long> pending = new TreeMap<>();

    /** The denial while a block lasts, else {@code null}: the algorithm decides. */
    @Nullable Decision blocked(long now, long limit) {
        if (blockedUntil <= now) {
            return null;
        }
        long left = blockedUntil - now;
        return new Decision(false, limit, 0, left, left, now);
    }

    /**
     * Starts a block after the algorithm's final denial, and says how long it lasts: the block, or the
     * algorithm's own wait if that is longer.
     */
    Decision offended(Decision denial, long now, Penalty penalty) {
        if (now - blockedUntil >= penalty.longestMillis()) {
            offences = 0;
        }
        offences = Math.min(offences + 1, Penalty.MAX_OFFENCES);
        long wait = Math.max(penalty.block(offences), denial.retryAfterMillis());
        blockedUntil = now + wait;
        expiresAt = Math.max(expiresAt, blockedUntil + penalty.longestMillis());
        return new Decision(false, denial.count(), denial.remaining(), wait, Math.max(denial.resetMillis(), wait), now,
                Batch.NONE, denial.demand());
    }

    /**
     * A denial that units still pending could undo: no block, and the wait until a running request may end,
     * or the algorithm's own if that is shorter.
     */
    static Decision undecided(Decision denial) {
        return new Decision(false, denial.count(), denial.remaining(),
                Math.min(denial.retryAfterMillis(), CounterState.UNTIL_A_REQUEST_ENDS_MILLIS), denial.resetMillis(),
                denial.decidedAt(), Batch.NONE, denial.demand());
    }

    /** An admitted request holds {@code units} pending, kept as long as the admission's reset. */
    void reserved(Decision admission, long units) {
        pending.merge(admission.decidedAt(), units, Long::sum);
        expiresAt = Math.max(expiresAt, admission.decidedAt() + admission.resetMillis());
    }

    /** The request reserved at {@code reservedAt} no longer holds {@code units} pending (a field gone stays gone). */
    void released(long reservedAt, long units) {
        pending.computeIfPresent(reservedAt, (at, held) -> held > units ? held - units : null);
    }

    /** The units pending that were reserved at {@code since} or later; those reserved earlier are pending no more, and go. */
    long pendingSince(long since) {
        pending.headMap(since).clear();
        return pending.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Whether it is as good as absent: the moment the penalty hash's TTL would end. */
    boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
