package dev.ratelimit.interceptor.internal.background;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import java.time.Clock;
import java.time.Duration;

/**
 * A writer that adds what this instance gathered to Redis every {@code interval}, aligned to the
 * clock (so that an interval that divides 10 s never spans two statistics buckets), on a thread of its
 * own, and once more when the app stops: after the web server has stopped taking requests and before
 * the Redis connections close, so that nothing gathered while the process lives is lost.
 */
public abstract class IntervalRedisWriter extends RedisBackgroundWork {

    private final PeriodicRedisWrite writes;
    private final Duration interval;
    private final Clock clock;

    /**
     * @param what         what is written, for the log and the thread's name
     * @param whileFailing what happens to it while writes fail, for the log
     */
    protected IntervalRedisWriter(String what, String whileFailing, Duration interval, Clock clock) {
        this.writes = new PeriodicRedisWrite(what, whileFailing, this::write);
        this.interval = interval;
        this.clock = clock;
    }

    /** Writes what was gathered since the last write; throws when Redis does not take it. */
    protected abstract void write();

    /** The clock the writes are aligned to, and the subclass's time. */
    protected Clock clock() {
        return clock;
    }

    /** Writes now, on the calling thread. */
    public void flush() {
        writes.run();
    }

    @Override
    protected void started() {
        long period = interval.toMillis();
        writes.schedule(period - Math.floorMod(clock.millis(), period), period);
    }

    @Override
    protected void stopping() {
        writes.cancel();
        writes.runLast();
    }

}
