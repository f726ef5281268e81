package dev.ratelimit.interceptor;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Work the limiter does with Redis in the background (statistics and heartbeat writes, start-up tasks,
 * config refreshes, the config-change subscription), as a lifecycle bean that stops in {@link #PHASE}:
 * after the web server has stopped taking requests and before the Redis connections close.
 */
public abstract class RedisBackgroundWork implements SmartLifecycle {

    /**
     * After the web server (which stops at {@code DEFAULT_PHASE - 2048}, so no request is counted after
     * the last write) and before the Redis connection factories (phase 0), so the last write still
     * reaches Redis and no work is left to fail on a closing connection and warn about it.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    /**
     * How long a stop waits for the work under way. A healthy Redis answers in milliseconds; a Redis that
     * does not answer must not hold the app's shutdown for its command timeout.
     */
    static final Duration STOP_WAIT = Duration.ofSeconds(2);

    private volatile boolean running;
    private volatile boolean stopped;

    @Override
    public final void start() {
        stopped = false;
        running = true;
        started();
    }

    @Override
    public final void stop() {
        running = false;
        stopped = true;
        stopping();
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public final int getPhase() {
        return PHASE;
    }

    /** Whether the app has stopped this work: a failure from then on is the stop's doing, not Redis'. */
    protected final boolean hasStopped() {
        return stopped;
    }

    /** What begins when the app starts; nothing by default. */
    protected void started() {
    }

    /** Stops the work, before the Redis connections close. */
    protected abstract void stopping();

    /**
     * Starts no more work on {@code executor} and lets the work under way finish, for at most
     * {@link #STOP_WAIT}, then interrupts it. Not interrupted at once: an interrupted thread leaves its
     * connection attempt running in the client's event loop, which then fails, loudly, as the loop shuts down.
     */
    public static void stop(ExecutorService executor) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
