package dev.ratelimit.interceptor.internal.log.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.testsupport.Concurrently;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/** What the writer does when the queue overflows or the database is gone, hung, or back again. */
@Timeout(120)
class WriterFailureTest {

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void aFullQueueDropsAndCountsEveryRowItCannotTake() throws Exception {
        TestDatabase db = closing(TestDatabase.create(TestDatabase.Kind.H2));
        BatchingInterceptionLog writer = writer(new LogDatabase(db.dataSource(), DatabaseInitializationMode.ALWAYS),
                1_000, 3, Duration.ofSeconds(30));

        // The writer thread is not started yet, so nothing leaves the queue while 32 threads fill it.
        recordConcurrently(writer, 32, 10_000);
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(0, 0, 9_000, 1_000));

        writer.afterPropertiesSet();
        await().until(() -> writer.stats().written() == 1_000);
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(1_000, 1_000, 9_000, 0));
        assertThat(writer.droppedInterceptions()).isEqualTo(9_000);
        assertThat(db.rowCount()).isEqualTo(1_000);
    }

    @Test
    void anUnreachableDatabaseCostsTheCallersNothingAndEveryRowIsCountedAsDropped() throws Exception {
        HikariDataSource closedPort = closing(pool("jdbc:postgresql://127.0.0.1:" + RedisServerProcess.freePort()
                + "/test?user=postgres"));
        BatchingInterceptionLog writer = writer(new LogDatabase(closedPort, DatabaseInitializationMode.ALWAYS),
                10_000, 2, Duration.ofSeconds(5));
        writer.afterPropertiesSet();

        recordConcurrently(writer, 8, 500);

        // HikariCP tries to start its pool on every attempt and takes a few seconds to give up each time.
        await().atMost(Duration.ofSeconds(90)).until(() -> writer.stats().dropped() == 500);
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(0, 0, 500, 0));
    }

    @Test
    void aHungDatabaseNeverHoldsTheCallerAndShutdownEndsOnTime() throws Exception {
        // Accepts connections (the kernel completes the handshake) and never answers: a database that hangs.
        ServerSocket blackHole = closing(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        PGSimpleDataSource hung = new PGSimpleDataSource();
        hung.setUrl("jdbc:postgresql://127.0.0.1:" + blackHole.getLocalPort() + "/test?user=postgres");
        hung.setLoginTimeout(30);
        BatchingInterceptionLog writer = writer(new LogDatabase(hung, DatabaseInitializationMode.NEVER),
                100, 1, Duration.ofMillis(200));
        writer.afterPropertiesSet();

        writer.record(Interceptions.numbered(0));
        await().until(() -> writer.stats().queued() == 0); // the writer thread took it and is stuck connecting
        for (int i = 1; i <= 1_000; i++) {
            writer.record(Interceptions.numbered(i));
        }
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(0, 0, 900, 100));

        writer.destroy();
        assertThat(writer.stats()).isEqualTo(new LogWriterStats(0, 0, 1_000, 0));

        blackHole.close(); // the stuck attempt fails now, and its row is counted too
        await().until(() -> writer.stats().dropped() == 1_001);
    }

    @Test
    void rowsAreDroppedWhileTheDatabaseIsDownAndWrittenAgainOnceItIsBack(@TempDir Path files) throws Exception {
        int port = RedisServerProcess.freePort();
        String[] serverArguments = {"-tcpPort", Integer.toString(port), "-ifNotExists", "-baseDir", files.toString()};
        Server server = Server.createTcpServer(serverArguments).start();
        HikariDataSource dataSource = closing(pool("jdbc:h2:tcp://127.0.0.1:" + port + "/log"));
        // A retry pause above Hikari's 500 ms alive-bypass window (as the default is): the pool then checks
        // a connection before lending it again, so connections broken by the restart are not handed out twice.
        BatchingInterceptionLog writer = new BatchingInterceptionLog(
                new LogDatabase(dataSource, DatabaseInitializationMode.ALWAYS), ZoneOffset.UTC, 10_000, Duration.ofSeconds(1), 100, 3,
                Duration.ofMillis(600), Duration.ofSeconds(5));
        resources.add(writer::destroy);
        writer.afterPropertiesSet();

        recordConcurrently(writer, 4, 100);
        await().until(() -> writer.stats().written() == 100);

        server.stop();
        recordConcurrently(writer, 4, 50);
        await().until(() -> writer.stats().dropped() == 50);

        server = Server.createTcpServer(serverArguments).start();
        try {
            recordConcurrently(writer, 4, 30);
            await().until(() -> writer.stats().written() == 130);
            assertThat(writer.stats()).isEqualTo(new LogWriterStats(130, 130, 50, 0));
            assertThat(rowCount(dataSource)).isEqualTo(130);
        } finally {
            writer.destroy();
            server.stop();
        }
    }

    /** A pool as Spring Boot builds one: connecting lazily, on first use. */
    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setConnectionTimeout(250);
        return pool;
    }

    private BatchingInterceptionLog writer(LogDatabase database, int capacity, int attempts, Duration shutdown) {
        BatchingInterceptionLog writer = new BatchingInterceptionLog(database, ZoneOffset.UTC, capacity, Duration.ofSeconds(1), 100,
                attempts, Duration.ofMillis(20), shutdown);
        resources.add(writer::destroy);
        return writer;
    }

    private <T extends AutoCloseable> T closing(T resource) {
        resources.add(resource);
        return resource;
    }

    private static void recordConcurrently(BatchingInterceptionLog writer, int threads, int rows) throws Exception {
        Concurrently.forEachIndex(threads, rows, i -> writer.record(Interceptions.numbered(i)));
    }

    private static long rowCount(DataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection();
             var result = connection.createStatement().executeQuery("SELECT COUNT(*) FROM biz_sys_ratelimit_log")) {
            result.next();
            return result.getLong(1);
        }
    }
}
