package dev.ratelimit.interceptor.testsupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * A fresh, empty database for a test, dropped again on {@link #close()}: an in-memory H2, or a
 * schema of its own on the local MariaDB or PostgreSQL server, so parallel builds never collide.
 * A server that does not answer skips the test with the reason, unless the environment variable
 * {@value #REQUIRE_DATABASES} is {@code true} (as in CI), where it fails it.
 */
public final class TestDatabase implements AutoCloseable {

    public static final String REQUIRE_DATABASES = "RATELIMIT_REQUIRE_DATABASES";

    public enum Kind {
        H2("jdbc:h2:mem:", "sa", ""), // "sa": what Spring Boot connects to an embedded database as when no user is set
        MARIADB("jdbc:mariadb://127.0.0.1:3306/", "root", ""),
        POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");

        private final String url;
        private final String user;
        private final String password;

        Kind(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }
    }

    private final Kind kind;
    private final String name;
    private final String url;
    private final HikariDataSource dataSource;

    private TestDatabase(Kind kind, String name, String url) {
        this.kind = kind;
        this.name = name;
        this.url = url;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(kind.user);
        config.setPassword(kind.password);
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(5_000);
        config.setPoolName("test-" + name);
        this.dataSource = new HikariDataSource(config);
    }

    /** A new empty database (no table yet) of the given kind. */
    public static TestDatabase create(Kind kind) {
        String name = "rl_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return switch (kind) {
            case H2 -> new TestDatabase(kind, name, kind.url + name + ";DB_CLOSE_DELAY=-1");
            case MARIADB -> {
                admin(kind, "CREATE DATABASE " + name);
                yield new TestDatabase(kind, name, kind.url + name);
            }
            case POSTGRESQL -> {
                admin(kind, "CREATE SCHEMA " + name);
                yield new TestDatabase(kind, name, kind.url + "?currentSchema=" + name);
            }
        };
    }

    public Kind kind() {
        return kind;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** JDBC URL of this database, for an app started against it. */
    public String url() {
        return url;
    }

    public String user() {
        return kind.user;
    }

    /** Rows in the log table now. */
    public long rowCount() {
        return queryLong("SELECT COUNT(*) FROM biz_sys_ratelimit_log");
    }

    public long queryLong(String sql) {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    public void execute(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
        switch (kind) {
            case H2 -> run(url, kind, "SHUTDOWN");
            case MARIADB -> admin(kind, "DROP DATABASE IF EXISTS " + name);
            case POSTGRESQL -> admin(kind, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }

    private static void admin(Kind kind, String sql) {
        run(kind.url, kind, sql);
    }

    /** Runs one statement on a connection of its own; a server that cannot be reached skips or fails the test. */
    private static void run(String url, Kind kind, String sql) {
        Properties credentials = new Properties();
        credentials.setProperty("user", kind.user);
        credentials.setProperty("password", kind.password);
        DriverManager.setLoginTimeout(5);
        Connection connection;
        try {
            connection = DriverManager.getConnection(url, credentials);
        } catch (SQLException e) {
            throw unavailable(kind, e);
        }
        try (connection; Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static RuntimeException unavailable(Kind kind, SQLException cause) {
        String message = kind + " at " + kind.url + " is not available (" + cause + ")";
        if (Boolean.parseBoolean(System.getenv(REQUIRE_DATABASES))) {
            throw new IllegalStateException(message + "; it is required because " + REQUIRE_DATABASES + "=true", cause);
        }
        System.err.println("SKIPPED: " + message);
        return Assumptions.abort(message + "; skipped (set " + REQUIRE_DATABASES + "=true to fail instead)");
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + ":" + name;
    }
}
