package dev.ratelimit.interceptor.internal.log.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Measures how many rows per second the writer puts into each database, with the default batch size.
 * A measurement, not a test of speed: run it on demand with {@code -Dratelimit.measure=true}; it
 * prints the figures (to the surefire output file) and checks only that every row landed.
 */
@EnabledIfSystemProperty(named = "ratelimit.measure", matches = "true")
@ParameterizedClass
@EnumSource(TestDatabase.Kind.class)
class WriterThroughputMeasurement {

    private static final int ROWS = 100_000;
    private static final int BATCH_SIZE = 500;

    @Parameter
    TestDatabase.Kind kind;

    @Test
    void rowsPerSecond() throws InterruptedException {
        try (TestDatabase db = TestDatabase.create(kind)) {
            BatchingInterceptionLog writer = new BatchingInterceptionLog(
                    new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS), ZoneOffset.UTC, ROWS,
                    Duration.ofSeconds(1), BATCH_SIZE, 3, Duration.ofSeconds(1), Duration.ofSeconds(60));
            List<Interception> rows = new ArrayList<>(ROWS);
            for (int i = 0; i < ROWS; i++) {
                rows.add(Interceptions.numbered(i));
            }
            writer.afterPropertiesSet();
            writer.record(rows.get(0)); // opens the pool and creates the table before the clock starts
            await().until(() -> writer.stats().written() == 1);

            long start = System.nanoTime();
            for (int i = 1; i < ROWS; i++) {
                writer.record(rows.get(i));
            }
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> writer.stats().written() == ROWS);
            double seconds = (System.nanoTime() - start) / 1e9;
            writer.destroy();

            assertThat(db.rowCount()).isEqualTo(ROWS);
            System.out.printf("writer throughput on %s: %d rows in %.2f s = %.0f rows/s (batch size %d)%n",
                    kind, ROWS - 1, seconds, (ROWS - 1) / seconds, BATCH_SIZE);
        }
    }
}
