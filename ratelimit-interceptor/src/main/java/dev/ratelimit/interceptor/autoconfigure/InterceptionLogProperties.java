package dev.ratelimit.interceptor.autoconfigure;

import java.time.Duration;
import java.time.ZoneId;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * The interception log, under {@code ratelimit.log.*}. It is on when the app has a DataSource and MyBatis.
 *
 * @param enabled          whether interceptions are written to the database at all
 * @param timeZone         the wall clock of {@code created_at}, and so of the report days; default the JVM's zone.
 *                         Every app writing to one table should use the same zone
 * @param initializeSchema when to create the table from the packaged DDL: {@code embedded} (only an in-memory
 *                         database), {@code always} (the DDL is idempotent), {@code never}
 */
@ConfigurationProperties("ratelimit.log")
public record InterceptionLogProperties(
        @DefaultValue("true") boolean enabled,
        ZoneId timeZone,
        @DefaultValue("embedded") DatabaseInitializationMode initializeSchema,
        @DefaultValue Writer writer,
        @DefaultValue Retention retention,
        @DefaultValue Report report) {

    public InterceptionLogProperties {
        if (timeZone == null) {
            timeZone = ZoneId.systemDefault();
        }
    }

    /**
     * @param queueCapacity   rows waiting to be written at most; beyond it interceptions are dropped (and counted)
     * @param coalesceWindow  identical interceptions (same module, rule, user, address, method, URI, limit, mode)
     *                        within this time from the first are one row, with their number in {@code hits}
     * @param batchSize       rows per INSERT at most
     * @param attempts        tries of a batch before its rows are dropped
     * @param retryBackoff    pause between two tries of a batch; above HikariCP's 500 ms alive-bypass window, so
     *                        that the pool checks a connection before lending it for the next try
     * @param shutdownTimeout how long shutdown may spend writing out the queue
     */
    public record Writer(@DefaultValue("10000") int queueCapacity,
                         @DefaultValue("1s") Duration coalesceWindow,
                         @DefaultValue("500") int batchSize,
                         @DefaultValue("3") int attempts,
                         @DefaultValue("1s") Duration retryBackoff,
                         @DefaultValue("5s") Duration shutdownTimeout) {

        public Writer {
            atLeastOne("ratelimit.log.writer.queue-capacity", queueCapacity);
            atLeastOne("ratelimit.log.writer.batch-size", batchSize);
            atLeastOne("ratelimit.log.writer.attempts", attempts);
            if (coalesceWindow.isNegative() || coalesceWindow.isZero()) {
                throw new IllegalArgumentException("ratelimit.log.writer.coalesce-window must be positive, was "
                        + coalesceWindow);
            }
        }
    }

    /**
     * @param days      rows older than this many days are deleted; 0 keeps them forever
     * @param batchSize rows per DELETE
     * @param interval  time between two purges
     */
    public record Retention(@DefaultValue("90") int days,
                            @DefaultValue("1000") int batchSize,
                            @DefaultValue("1d") Duration interval) {

        public Retention {
            if (days < 0) {
                throw new IllegalArgumentException("ratelimit.log.retention.days must be 0 (keep) or more, was " + days);
            }
            atLeastOne("ratelimit.log.retention.batch-size", batchSize);
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("ratelimit.log.retention.interval must be positive, was " + interval);
            }
        }
    }

    /**
     * @param maxPageSize largest detail page, whatever a caller asks for
     * @param maxTop      longest top-users list
     * @param maxDays     longest date range of the daily counts
     */
    public record Report(@DefaultValue("200") int maxPageSize,
                         @DefaultValue("100") int maxTop,
                         @DefaultValue("366") int maxDays) {

        public Report {
            atLeastOne("ratelimit.log.report.max-page-size", maxPageSize);
            atLeastOne("ratelimit.log.report.max-top", maxTop);
            atLeastOne("ratelimit.log.report.max-days", maxDays);
        }
    }

    private static void atLeastOne(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was " + value);
        }
    }
}
