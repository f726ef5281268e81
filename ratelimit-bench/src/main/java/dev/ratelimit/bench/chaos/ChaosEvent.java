package dev.ratelimit.bench.chaos;

/**
 * One thing done to Redis or an instance during the run.
 *
 * @param start       when it began, in nanoseconds of the run's clock
 * @param end         when Redis answered again (or the instance went on), same clock
 * @param redisAway   whether Redis could not decide meanwhile: what was decided then is left out of the over-limit check
 * @param resets      whether it emptied every counter (a restart, a flush): windows begin afresh after it
 * @param backMillis  from {@code end} until the operator's values were in Redis again, -1 when they never came back
 */
record ChaosEvent(String name, long start, long end, boolean redisAway, boolean resets, long backMillis) {

    /**
     * How long after Redis answers again requests may still be decided by the failure policy: until the
     * circuit's next probe ({@code ratelimit.redis-failure.probe-interval}, 1 s) closes it, with room.
     */
    static final long CIRCUIT_CLOSES_NANOS = 2_000_000_000L;

    /**
     * Whether a request sent at {@code sent} and answered at {@code answered} may have been decided
     * otherwise than by one run of Redis' counters: while Redis was away or the circuit still open, or
     * across the moment every counter was emptied.
     */
    boolean unsettles(long sent, long answered) {
        if (!redisAway && !resets) {
            return false;
        }
        long settled = redisAway ? end + CIRCUIT_CLOSES_NANOS : end;
        return sent <= settled && answered >= start;
    }
}
