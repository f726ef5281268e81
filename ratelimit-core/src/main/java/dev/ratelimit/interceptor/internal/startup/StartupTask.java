package dev.ratelimit.interceptor.internal.startup;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.store.RedisUnreachableException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Something an app does with Redis once per start, when it is ready: done on a thread of its own and
 * retried with growing pauses until Redis answers, so a slow or absent Redis never delays or fails
 * the start, and an app started during a Redis outage still catches up once Redis is back. An app that
 * stops first drops the task quietly, before its Redis connections close.
 */
public final class StartupTask extends RedisBackgroundWork
        implements ApplicationListener<ApplicationReadyEvent>, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StartupTask.class);
    private static final long FIRST_PAUSE_MILLIS = 500;
    private static final long MAX_PAUSE_MILLIS = 10_000;

    private final String description;
    private final Runnable task;
    private final AtomicBoolean started = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-startup");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param description what the task does, for the log ("report the API index of module demo")
     * @param task        the task; throws when Redis does not answer
     */
    public StartupTask(String description, Runnable task) {
        this.description = description;
        this.task = task;
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // a retry waiting is dropped at the stop
    }

    /** Starts on the first ready event only: a child context's event reaches its parent's listeners too. */
    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (started.compareAndSet(false, true)) {
            BackOffExecution pauses = retryPauses().start();
            later(() -> attempt(pauses, 0), 0);
        }
    }

    private void attempt(BackOffExecution pauses, int failures) {
        try {
            task.run();
            if (failures > 0) {
                log.info("Managed to {} after {} failed attempt(s)", description, failures);
            }
            executor.shutdown();
        } catch (RuntimeException e) {
            if (hasStopped()) {
                log.debug("Did not {}: the app stopped first ({})", description, e.toString());
                return;
            }
            if (failures == 0 && !RedisUnreachableException.isCause(e)) {
                log.warn("Cannot {} yet, retrying in the background until Redis answers: {}", description,
                        e.toString());
            } else {
                log.debug("Still cannot {} (attempt {}): {}", description, failures + 1, e.toString());
            }
            long pause = pauses.nextBackOff();
            if (pause != BackOffExecution.STOP && !hasStopped()) {
                later(() -> attempt(pauses, failures + 1), pause);
            }
        }
    }

    /**
     * Runs {@code step} after {@code delayMillis}, unless the app is stopping: a stop that began before the
     * ready event was published (a SIGTERM right after the start) has shut the executor down, and the
     * task is then dropped as it is at any other stop, not thrown at the start.
     */
    private void later(Runnable step, long delayMillis) {
        try {
            executor.schedule(step, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("Did not {}: the app stopped first", description);
        }
    }

    /**
     * The pauses between attempts to reach a Redis that was away at start-up: half a second, doubling
     * up to ten seconds, without end. Short enough to catch up soon after Redis is back, long enough
     * to cost nothing while it is away.
     */
    private static BackOff retryPauses() {
        ExponentialBackOff pauses = new ExponentialBackOff(FIRST_PAUSE_MILLIS, 2);
        pauses.setMaxInterval(MAX_PAUSE_MILLIS);
        return pauses;
    }

    @Override
    protected void stopping() {
        stop(executor);
    }

    @Override
    protected String what() {
        return "the task to " + description;
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
