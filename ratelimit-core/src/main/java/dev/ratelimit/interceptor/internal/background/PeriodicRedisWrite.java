package dev.ratelimit.interceptor.internal.background;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.store.RedisUnreachableException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write to Redis repeated on a daemon thread of its own, for the statistics and heartbeats that
 * every instance shares. A failing write is logged once when the failures begin and once when they
 * end, however long Redis is away.
 */
public final class PeriodicRedisWrite {

    private static final Logger log = LoggerFactory.getLogger(PeriodicRedisWrite.class);

    private final String what;
    private final String whileFailing;
    private final Runnable write;
    private final ScheduledExecutorService scheduler;
    /** Whether failures began and were warned of. */
    private volatile boolean failing;
    /** Whether failures began while the connection was not made, which the connection warned of. */
    private volatile boolean quietlyFailing;
    private volatile boolean cancelled;

    /**
     * @param what         what is written, for the log and the thread's name ("traffic statistics")
     * @param whileFailing what happens while writes fail, for the log
     * @param write        throws when Redis does not take it
     */
    public PeriodicRedisWrite(String what, String whileFailing, Runnable write) {
        this.what = what;
        this.whileFailing = whileFailing;
        this.write = write;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ratelimit-" + what.replace(' ', '-'));
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the writes; none once the app is stopping (a stop begun before the app was ready has shut them). */
    public void schedule(long initialDelayMillis, long periodMillis) {
        try {
            scheduler.scheduleAtFixedRate(() -> attempt(true), initialDelayMillis, periodMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("Rate limit {}: not started, the app is stopping", what);
        }
    }

    /** Writes once, now, on the calling thread. */
    public void run() {
        attempt(false);
    }

    /** Writes once more, on the calling thread, as the app stops: what does not reach Redis now is lost. */
    public void runLast() {
        try {
            write.run();
        } catch (RuntimeException e) {
            log.warn("Rate limit {}: the last write, as the app stops, did not reach Redis and is lost: {}", what,
                    e.toString());
        }
    }

    private void attempt(boolean scheduled) {
        try {
            write.run();
            if (failing) {
                failing = false;
                log.info("Rate limit {}: written to Redis again", what);
            }
            quietlyFailing = false;
        } catch (RuntimeException e) {
            if (scheduled && cancelled) {
                // the stop cut it short; the stopping thread writes once more
                log.debug("Rate limit {}: a scheduled write cut short by the stop: {}", what, e.toString());
                return;
            }
            if (RedisUnreachableException.isCause(e)) {
                // Said once by the connection, with what waits meanwhile.
                if (!quietlyFailing) {
                    quietlyFailing = true;
                    log.debug("Rate limit {}: cannot write to Redis, {}: {}", what, whileFailing, e.toString());
                }
            } else if (!failing) {
                failing = true;
                log.warn("Rate limit {}: cannot write to Redis, {}: {}", what, whileFailing, e.toString());
            }
        }
    }

    /** No more scheduled writes; one under way may finish ({@link RedisBackgroundWork#stop}). */
    public void cancel() {
        cancelled = true;
        RedisBackgroundWork.stop(scheduler);
    }
}
