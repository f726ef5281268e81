package dev.ratelimit.interceptor.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Work the limiter does with Redis in the background (statistics and heartbeat writes, start-up tasks,
 * config refreshes, the config-change subscription), as a lifecycle bean that stops in {@link #PHASE}:
 * after the web server has stopped taking requests and before the Redis connections close. Every such
 * bean stops at the same time as the others, and the app waits for none longer than {@link #STOP_WAIT},
 * whatever Redis does.
 */
public abstract class RedisBackgroundWork implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RedisBackgroundWork.class);

    /**
     * After the web server (which stops at {@code DEFAULT_PHASE - 2048}, so no request is counted after
     * the last write) and before the Redis connection factories (phase 0), so the last write still
     * reaches Redis and no work is left to fail on a closing connection and warn about it.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    /**
     * How long a stop waits for the work under way and for its last writes. A healthy Redis answers in
     * milliseconds; a Redis that does not answer must not hold the app's shutdown for its command timeout.
     */
    public static final Duration STOP_WAIT = Duration.ofSeconds(2);

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
        beginStop().join();
    }

    /**
     * Stops on a thread of its own and tells the app once stopped, or once {@link #STOP_WAIT} has passed:
     * the app's lifecycle stops the beans of a phase side by side and waits for their callbacks, so all the
     * limiter's background work together holds the app's stop for {@code STOP_WAIT} at most.
     */
    @Override
    public final void stop(Runnable callback) {
        beginStop().whenComplete((nothing, failure) -> callback.run());
    }

    private CompletableFuture<Void> beginStop() {
        running = false;
        stopped = true;
        return runBounded(what(), this::stopping);
    }

    /** What this work is, for the log. */
    protected String what() {
        return getClass().getSimpleName();
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
     * Runs {@code stop} on a daemon thread of its own and gives the answer once it ended, or once
     * {@link #STOP_WAIT} has passed: Redis calls that do not return then go on without holding anyone,
     * and fail when the connections close. Never completes exceptionally; a failure is logged.
     *
     * @param what what stops, for the log
     */
    public static CompletableFuture<Void> runBounded(String what, Runnable stop) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                stop.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        }, "ratelimit-stop");
        thread.setDaemon(true);
        thread.start();
        return done.orTimeout(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS).handle((nothing, failure) -> {
            if (failure instanceof TimeoutException) {
                log.info("Rate limiter: {} did not stop within {} (Redis does not answer); the app stops without "
                        + "waiting for it", what, STOP_WAIT);
            } else if (failure != null) {
                log.warn("Rate limiter: {} failed to stop: {}", what, failure.toString());
            }
            return null;
        });
    }

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
