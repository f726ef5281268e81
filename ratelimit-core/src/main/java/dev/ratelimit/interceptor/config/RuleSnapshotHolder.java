package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.store.RedisUnreachableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Holds the current {@link RuleSnapshot} in a {@code volatile} field and refreshes it from Redis on a
 * background thread: periodically, at once when a change is announced ({@link #refreshSoon()}), and
 * whenever the hash's {@code config.version}, asked every {@code checkInterval}, is not the snapshot's.
 *
 * <p>What operators set is data, not cache: a hash that vanished (Redis restarted without persistence, a
 * flush, an eviction) or went back to an older version (a failover to a replica that lagged) never
 * replaces the snapshot. The instance keeps applying its snapshot and puts it back into Redis, only
 * where the hash is absent or older, so that instances with different snapshots do not fight and the
 * newest wins. With a {@link DurableConfigCopy} (which every write through {@link SysConfigRepository}
 * reaches before it returns), each read's snapshot is kept there too, which keeps what was written
 * otherwise (a hand edit, a declaration, a write the database missed) once the database answers; a first
 * read that finds the hash missing or older than the copy puts the copy back. A refresh that fails keeps the
 * snapshot it had; a first load that fails leaves the defaults (declared limits on, nothing dynamic)
 * until Redis answers.
 */
public class RuleSnapshotHolder extends RedisBackgroundWork
        implements InitializingBean, SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RuleSnapshotHolder.class);

    private final ConfigHash hash;
    private final @Nullable DurableConfigCopy copy;
    private final Supplier<List<ConfigReadListener>> listeners;
    private final Duration refreshInterval;
    private final Duration checkInterval;
    private final Duration initialLoadTimeout;
    private final Clock clock;
    private final Set<String> reportedWarnings = ConcurrentHashMap.newKeySet();
    private final CountDownLatch firstLoad = new CountDownLatch(1);
    private final Object refreshLock = new Object();
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private final ScheduledExecutorService scheduler = daemon("ratelimit-config-refresh");
    /** Writes the durable copy off the refresh thread: a slow database never holds a refresh. */
    private final ExecutorService copier = Executors.newSingleThreadExecutor(runnable -> thread(runnable,
            "ratelimit-config-copy"));
    private final AtomicReference<RuleSnapshot> toKeep = new AtomicReference<>();

    private volatile RuleSnapshot current = RuleSnapshot.defaults();
    private volatile @Nullable Instant lastRead;
    private volatile @Nullable Restore lastRestore;
    /** Listeners are beans too: found once every bean exists, so none is looked up inside start-up's lock. */
    private volatile List<ConfigReadListener> listening = List.of();
    private boolean read;
    private volatile boolean lastRefreshFailed;
    private boolean lossReported;

    /**
     * @param hash               the config hash; its reads throw when Redis is away
     * @param copy               the durable copy, or {@code null} for none
     * @param listeners          told after each read, once the app's beans all exist
     * @param refreshInterval    time between reads of the whole hash
     * @param checkInterval      time between reads of its version alone, which finds a lost hash
     * @param initialLoadTimeout how long start-up waits for the first load before going on with defaults
     */
    public RuleSnapshotHolder(ConfigHash hash, @Nullable DurableConfigCopy copy,
                              Supplier<List<ConfigReadListener>> listeners, Duration refreshInterval,
                              Duration checkInterval, Duration initialLoadTimeout, Clock clock) {
        positive("ratelimit.config.refresh-interval", refreshInterval);
        positive("ratelimit.config.check-interval", checkInterval);
        this.hash = hash;
        this.copy = copy;
        this.listeners = listeners;
        this.refreshInterval = refreshInterval;
        this.checkInterval = checkInterval;
        this.initialLoadTimeout = initialLoadTimeout;
        this.clock = clock;
    }

    /** The snapshot in force: one volatile read. */
    public RuleSnapshot current() {
        return current;
    }

    /** When the hash was last read, or {@code null} if never: the snapshot may be older while Redis is away. */
    public @Nullable Instant lastRead() {
        return lastRead;
    }

    /** The last time this instance put the hash back, or {@code null} if it never had to. */
    public @Nullable Restore lastRestore() {
        return lastRestore;
    }

    /** Waits until the first load has been tried (or the start-up wait is over), so that what follows reads it. */
    public void awaitFirstLoad() throws InterruptedException {
        firstLoad.await(initialLoadTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Reads the hash now: swaps the snapshot if its content changed, or puts the snapshot back if the
     * hash was lost.
     *
     * @return whether Redis answered
     */
    public boolean refresh() {
        synchronized (refreshLock) {
            try {
                Map<String, String> fields = Map.copyOf(hash.readAll());
                lastRead = clock.instant();
                if (lastRefreshFailed) {
                    log.info("Rate limit config is readable again");
                    lastRefreshFailed = false;
                }
                boolean restored = false;
                if (!read && fields.isEmpty()) {
                    // Only for a hash that is gone: the common start reads no database. A hash older than the
                    // copy (a Redis restored from an old backup) is put right by the first keep, moments later.
                    Optional<DurableConfigCopy.Copy> kept = copy == null ? Optional.empty() : copy.load();
                    if (kept.isPresent() && isOlder(fields, kept.get().version())) {
                        restored = putBack(kept.get().version(), kept.get().fields(), fields, "the database's copy");
                        fields = restored ? withVersion(kept.get().fields(), kept.get().version())
                                : Map.copyOf(hash.readAll());
                    }
                }
                if (current.holdsConfig() && isOlder(fields, current.version())) {
                    restored = putBack(current.version(), current.fields(), fields, "this instance's snapshot");
                } else {
                    if (lossReported && !fields.isEmpty()) {
                        lossReported = false;
                    }
                    if (!read || !fields.equals(current.fields())) {
                        current = SysConfigParser.parse(fields, clock.instant(), this::warnOnce);
                    }
                }
                read = true;
                keepDurably(current);
                tell(current, restored);
                return true;
            } catch (RuntimeException e) {
                if (hasStopped()) {
                    log.debug("Rate limit config not read: the app is stopping ({})", e.toString());
                    return false;
                }
                if (!lastRefreshFailed) {
                    // Redis not reached at all is said once, by the limiter's connection.
                    if (RedisUnreachableException.isCause(e)) {
                        log.debug("Cannot read the rate limit config, keeping the snapshot of {} (version {}): {}",
                                current.loadedAt(), current.version(), e.toString());
                    } else {
                        log.warn("Cannot read the rate limit config, keeping the snapshot of {} (version {}): {}",
                                current.loadedAt(), current.version(), e.toString());
                    }
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

    /**
     * Reads the version alone, and the whole hash only when it is not the snapshot's, or when the last read
     * failed: a change reported while Redis could not be read (a hand edit during a failover) changes no
     * version, and would otherwise wait for the periodic refresh.
     */
    private void check() {
        Long version;
        try {
            version = hash.version();
        } catch (RuntimeException e) {
            return; // Redis away: the next full read says so, once
        }
        if (lastRefreshFailed || (version == null ? current.holdsConfig() : version != current.version())) {
            refresh();
        }
    }

    /** Whether the hash read is missing, or older than {@code version}: then a copy of that version goes back. */
    private static boolean isOlder(Map<String, String> fields, long version) {
        return fields.isEmpty() || SysConfigParser.version(fields) < version;
    }

    /** Puts a copy back where the hash is absent or older; whether this instance did. */
    private boolean putBack(long version, Map<String, String> copyFields, Map<String, String> found, String what) {
        if (!hash.restore(version, copyFields)) {
            refreshSoon(); // another instance put a copy as new back first, or an operator wrote since: read it
            return false;
        }
        Restore restore = new Restore(clock.instant(), version, found.isEmpty() ? null : SysConfigParser.version(found),
                what);
        lastRestore = restore;
        if (!lossReported) {
            lossReported = true;
            log.warn("The rate limit config hash was {} in Redis (a restart without persistence, a flush, an "
                            + "eviction or a failover); put back {} of version {} ({} fields), so operators' values "
                            + "stay in force. Make Redis keep it: persistence, and a volatile-* maxmemory-policy",
                    found.isEmpty() ? "gone" : "older (version " + restore.found() + ")", what, version,
                    copyFields.size());
        } else {
            log.info("Put the rate limit config hash back again ({} of version {})", what, version);
        }
        return true;
    }

    /**
     * Keeps the snapshot in the durable copy, off this thread; snapshots read while a keep waits are served
     * by it. At every read, not once per snapshot: the copy cannot tell whether its database took the last
     * one, and a keep of what it already holds is one read of its row.
     */
    private void keepDurably(RuleSnapshot snapshot) {
        DurableConfigCopy durable = copy;
        if (durable == null || !snapshot.holdsConfig() || toKeep.getAndSet(snapshot) != null) {
            return;
        }
        try {
            copier.execute(() -> {
                RuleSnapshot kept = toKeep.getAndSet(null);
                durable.keep(kept.version(), kept.fields()).ifPresent(this::offer);
            });
        } catch (RejectedExecutionException e) {
            // stopping: the snapshot was kept when it was read, or will be by another instance
        }
    }

    /** A copy newer than the hash in Redis, found in the database: it goes back when it is newer than the snapshot too. */
    private void offer(DurableConfigCopy.Copy newer) {
        synchronized (refreshLock) {
            if (newer.version() <= current.version()) {
                return;
            }
            try {
                Map<String, String> found = Map.copyOf(hash.readAll());
                if (isOlder(found, newer.version()) && putBack(newer.version(), newer.fields(), found,
                        "the database's copy")) {
                    current = SysConfigParser.parse(withVersion(newer.fields(), newer.version()), clock.instant(),
                            this::warnOnce);
                    tell(current, true);
                }
            } catch (RuntimeException e) {
                log.debug("The database's copy of the rate limit config was not put back: {}", e.toString());
            }
        }
    }

    private void tell(RuleSnapshot snapshot, boolean restored) {
        for (ConfigReadListener listener : listening) {
            try {
                listener.configRead(snapshot, restored);
            } catch (RuntimeException e) {
                log.debug("After reading the rate limit config, {} failed: {}", listener, e.toString());
            }
        }
    }

    private static Map<String, String> withVersion(Map<String, String> fields, long version) {
        Map<String, String> versioned = new HashMap<>(fields);
        versioned.put(SysConfigFields.VERSION, Long.toString(version));
        return Map.copyOf(versioned);
    }

    /** The first read begins here, and goes on while the app's other beans are made. */
    @Override
    public void afterPropertiesSet() {
        scheduler.scheduleWithFixedDelay(this::refresh, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::check, checkInterval.toMillis(), checkInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Waits for the first read, once every bean exists and before the app takes requests: the wait is what
     * is left of the read once the rest of the start is done, usually nothing, so it costs the start no time.
     */
    @Override
    public void afterSingletonsInstantiated() {
        listening = List.copyOf(listeners.get());
        try {
            if (!firstLoad.await(initialLoadTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Rate limit config not loaded within {}; starting with defaults until Redis answers",
                        initialLoadTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** No refresh after this: the Redis connections close next. Refreshes begin in {@link #afterPropertiesSet}. */
    @Override
    protected void stopping() {
        stop(scheduler);
        stop(copier);
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
        copier.shutdownNow();
    }

    private void warnOnce(String warning) {
        if (reportedWarnings.add(warning)) {
            log.warn("Rate limit config: {}", warning);
        }
    }

    private static void positive(String property, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(property + " must be positive, was " + interval);
        }
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> thread(runnable, name));
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * This instance put the hash back.
     *
     * @param version the version put back
     * @param found   the version found in its place; {@code null} when the hash was gone
     * @param from    what was put back: this instance's snapshot, or the database's copy
     */
    public record Restore(Instant at, long version, @Nullable Long found, String from) {
    }
}
