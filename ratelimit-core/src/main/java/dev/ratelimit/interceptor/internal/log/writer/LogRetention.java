package dev.ratelimit.interceptor.internal.log.writer;

import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ibatis.session.SqlSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Deletes log rows older than the retention period, on a background thread once per interval. Rows
 * go in batches, each its own transaction, so a purge of millions of rows never holds long locks or a
 * huge undo log. Every instance of an app may run it: deleting what another instance deleted is a no-op.
 */
public class LogRetention implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LogRetention.class);
    /** Not at the very start: start-up is busy enough, and a crash-looping app should not purge each time. */
    private static final Duration FIRST_RUN_DELAY = Duration.ofMinutes(1);

    private final LogDatabase database;
    private final int days;
    private final int batchSize;
    private final Duration interval;
    private final Clock clock;
    private @Nullable ScheduledExecutorService scheduler;

    /**
     * @param days  rows older than this many days go; 0 keeps everything
     * @param clock the log's wall clock: its zone is the zone of {@code created_at}
     */
    public LogRetention(LogDatabase database, int days, int batchSize, Duration interval, Clock clock) {
        this.database = database;
        this.days = days;
        this.batchSize = batchSize;
        this.interval = interval;
        this.clock = clock;
        database.addMapper(LogWriteMapper.class);
    }

    /** Deletes every row older than the retention period, a batch at a time; returns how many went. */
    public long purge() {
        if (days == 0) {
            return 0;
        }
        LocalDateTime cutoff = LocalDateTime.now(clock).minusDays(days);
        long deleted = 0;
        int batch;
        do {
            try (SqlSession session = database.openSession(true)) {
                batch = session.getMapper(LogWriteMapper.class).deleteOlderThan(cutoff, batchSize);
            }
            deleted += batch;
        } while (batch == batchSize);
        return deleted;
    }

    @Override
    public void afterPropertiesSet() {
        if (days == 0) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ratelimit-log-retention");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::purgeAndReport, FIRST_RUN_DELAY.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    private void purgeAndReport() {
        try {
            long deleted = purge();
            log.info("Interception log: deleted {} rows older than {} days", deleted, days);
        } catch (RuntimeException e) {
            log.warn("Interception log purge failed; trying again in {}: {}", interval, e.toString());
        }
    }
}
