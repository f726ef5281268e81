package dev.ratelimit.interceptor.stats;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A write to Redis repeated on a daemon thread of its own, for the statistics and heartbeats that
 * every instance shares. A failing write is logged once when the failures begin and once when they
 * end, however long Redis is away.
 */
public final class PeriodicRedisWrite {

    /**
     * The lifecycle phase of the writers: stopped after the web server (which stops at
     * {@code DEFAULT_PHASE - 2048}, so no request is counted after the last write) and before the
     * Redis connection factories (phase 0), so the last write still reaches Redis.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger log = LoggerFactory.getLogger(PeriodicRedisWrite.class);

    private final String what;
    private final String whileFailing;
    private final Runnable write;
    private final ScheduledExecutorService scheduler;
    private volatile boolean failing;

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

    public void schedule(long initialDelayMillis, long periodMillis) {
        scheduler.scheduleAtFixedRate(this::run, initialDelayMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Writes once, now, on the calling thread. */
    public void run() {
        try {
            write.run();
            if (failing) {
                failing = false;
                log.info("Rate limit {}: written to Redis again", what);
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                log.warn("Rate limit {}: cannot write to Redis, {}: {}", what, whileFailing, e.toString());
            }
        }
    }

    /** No more scheduled writes; one under way is interrupted. */
    public void cancel() {
        scheduler.shutdownNow();
    }
}
