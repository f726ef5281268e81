package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.RedisBackgroundWork;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Holds the current {@link RuleSnapshot} in a {@code volatile} field and refreshes it from Redis on a
 * background thread: periodically, and at once when a change is announced ({@link #refreshSoon()}).
 * A refresh that fails keeps the snapshot it had; a first load that fails leaves
 * the defaults (declared limits on, nothing dynamic) until Redis answers.
 */
public class RuleSnapshotHolder extends RedisBackgroundWork implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RuleSnapshotHolder.class);

    private final Supplier<Map<String, String>> source;
    private final Duration refreshInterval;
    private final Duration initialLoadTimeout;
    private final Clock clock;
    private final Set<String> reportedWarnings = ConcurrentHashMap.newKeySet();
    private final CountDownLatch firstLoad = new CountDownLatch(1);
    private final Object refreshLock = new Object();
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-config-refresh");
        thread.setDaemon(true);
        return thread;
    });

    private volatile RuleSnapshot current = RuleSnapshot.defaults();
    private volatile Instant lastRead;
    private boolean read;
    private boolean lastRefreshFailed;

    /**
     * @param source             reads the whole hash; may throw when Redis is away
     * @param refreshInterval    time between background refreshes
     * @param initialLoadTimeout how long start-up waits for the first load before going on with defaults
     */
    public RuleSnapshotHolder(Supplier<Map<String, String>> source, Duration refreshInterval,
                              Duration initialLoadTimeout, Clock clock) {
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("ratelimit.config.refresh-interval must be positive, was " + refreshInterval);
        }
        this.source = source;
        this.refreshInterval = refreshInterval;
        this.initialLoadTimeout = initialLoadTimeout;
        this.clock = clock;
    }

    /** The snapshot in force: one volatile read. */
    public RuleSnapshot current() {
        return current;
    }

    /** When the hash was last read, or {@code null} if never: the snapshot may be older while Redis is away. */
    public Instant lastRead() {
        return lastRead;
    }

    /**
     * Reads the hash now and swaps the snapshot if its content changed.
     *
     * @return whether Redis answered
     */
    public boolean refresh() {
        synchronized (refreshLock) {
            try {
                Map<String, String> hash = Map.copyOf(source.get());
                lastRead = clock.instant();
                if (lastRefreshFailed) {
                    log.info("Rate limit config is readable again");
                    lastRefreshFailed = false;
                }
                if (!read || !hash.equals(current.fields())) {
                    current = SysConfigParser.parse(hash, clock.instant(), this::warnOnce);
                    read = true;
                }
                return true;
            } catch (RuntimeException e) {
                if (hasStopped()) {
                    log.debug("Rate limit config not read: the app is stopping ({})", e.toString());
                    return false;
                }
                if (!lastRefreshFailed) {
                    log.warn("Cannot read the rate limit config, keeping the snapshot of {} (version {}): {}",
                            current.loadedAt(), current.version(), e.toString());
                    lastRefreshFailed = true;
                }
                return false;
            } finally {
                firstLoad.countDown();
            }
        }
    }

    /**
     * Refreshes on the background thread as soon as it is free, without making the caller wait. Calls
     * that come before that refresh starts are served by it, so a burst of changes costs one read.
     */
    public void refreshSoon() {
        if (refreshQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(() -> {
                    refreshQueued.set(false);
                    refresh();
                });
            } catch (RejectedExecutionException e) {
                refreshQueued.set(false); // shutting down: nothing left to refresh for
            }
        }
    }

    @Override
    public void afterPropertiesSet() throws InterruptedException {
        scheduler.scheduleWithFixedDelay(this::refresh, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
        if (!firstLoad.await(initialLoadTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            log.warn("Rate limit config not loaded within {}; starting with defaults until Redis answers",
                    initialLoadTimeout);
        }
    }

    /** No refresh after this: the Redis connections close next. Refreshes begin in {@link #afterPropertiesSet}. */
    @Override
    protected void stopping() {
        stop(scheduler);
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }

    private void warnOnce(String warning) {
        if (reportedWarnings.add(warning)) {
            log.warn("Rate limit config: {}", warning);
        }
    }
}
