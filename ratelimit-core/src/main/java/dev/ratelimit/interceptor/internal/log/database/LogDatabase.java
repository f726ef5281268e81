package dev.ratelimit.interceptor.internal.log.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.mapping.VendorDatabaseIdProvider;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.defaults.DefaultSqlSessionFactory;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The interception log's own MyBatis set-up over the app's {@link DataSource}. Its session factory is
 * private, so the app's MyBatis configuration (mappers, type handlers, database id) is neither used
 * nor changed. The factory is built on first use, not at start-up: a database that is down when the
 * app starts delays logging instead of failing the start, and the build is tried again on the next use.
 */
public final class LogDatabase {

    /** Where the DDL of {@code sql/} is packaged, one script per database id. */
    static final String SCHEMA_LOCATION = "ratelimit/sql/";

    private static final Logger log = LoggerFactory.getLogger(LogDatabase.class);

    private final DataSource dataSource;
    private final DatabaseInitializationMode schemaInitialization;
    private final Set<Class<?>> mappers = new LinkedHashSet<>();
    private volatile @Nullable SqlSessionFactory sessions;
    /** The database's vendor, {@code null} for one without DDL here, and whether its schema was made; guarded by this. */
    private @Nullable String databaseId;
    private boolean schemaMade;

    /**
     * @param schemaInitialization when to create the table from the packaged DDL on first use:
     *                             {@code EMBEDDED} only for an in-memory database, {@code ALWAYS}, or {@code NEVER}
     */
    public LogDatabase(DataSource dataSource, DatabaseInitializationMode schemaInitialization) {
        this.dataSource = dataSource;
        this.schemaInitialization = schemaInitialization;
    }

    /**
     * Registers a mapper interface (with its XML beside it). One added after sessions were opened (a part
     * that used the database while others were still being created) gets a new session factory, which
     * has them all: sessions already open go on with the one they have, whose configuration never changes.
     */
    public synchronized void addMapper(Class<?> mapper) {
        if (mappers.add(mapper)) {
            sessions = null;
        }
    }

    /**
     * Opens a session on a connection of its own.
     *
     * @throws RuntimeException when the database cannot be reached; the next call tries again
     */
    public SqlSession openSession(boolean autoCommit) {
        return factory().openSession(autoCommit);
    }

    public SqlSession openSession(ExecutorType executor, boolean autoCommit) {
        return factory().openSession(executor, autoCommit);
    }

    private SqlSessionFactory factory() {
        SqlSessionFactory factory = sessions;
        return factory == null ? build() : factory;
    }

    private synchronized SqlSessionFactory build() {
        if (sessions != null) {
            return sessions;
        }
        if (!schemaMade) {
            databaseId = vendors().getDatabaseId(dataSource);
            initializeSchema(databaseId);
            upgradeSchema(databaseId);
            schemaMade = true;
        }
        Configuration configuration = new Configuration(
                new Environment("ratelimit-log", new JdbcTransactionFactory(), dataSource));
        configuration.setDatabaseId(databaseId);
        mappers.forEach(configuration::addMapper);
        sessions = new DefaultSqlSessionFactory(configuration);
        return sessions;
    }

    private boolean mayChangeSchema() {
        return schemaInitialization == DatabaseInitializationMode.ALWAYS
                || (schemaInitialization == DatabaseInitializationMode.EMBEDDED
                    && EmbeddedDatabaseConnection.isEmbedded(dataSource));
    }

    private void initializeSchema(@Nullable String databaseId) {
        if (!mayChangeSchema()) {
            return;
        }
        if (databaseId == null) {
            log.warn("No interception log DDL for this database; create the table biz_sys_ratelimit_log by hand");
            return;
        }
        new ResourceDatabasePopulator(new ClassPathResource(SCHEMA_LOCATION + databaseId + ".sql")).execute(dataSource);
    }

    /**
     * Brings a schema made by an earlier version up to date, when the schema may be changed: the
     * {@code hits} and {@code reason} columns of the log, the table of the config hash's durable copy. Otherwise says which
     * script to run, since what needs it fails until it is.
     */
    private void upgradeSchema(@Nullable String databaseId) {
        if (!answers("SELECT 1 FROM biz_sys_ratelimit_log WHERE 1 = 0")) {
            return; // no schema of an earlier version: the DDL of sql/ makes it whole
        }
        for (Upgrade upgrade : Upgrade.values()) {
            if (answers(upgrade.probe)) {
                continue;
            }
            String script = "upgrade/" + upgrade.script + "-" + (databaseId == null ? "h2" : databaseId) + ".sql";
            if (databaseId == null || !mayChangeSchema()) {
                log.error("Interception log database: {} is missing; run sql/{} (also in the jar as {}{}), or set "
                        + "ratelimit.log.initialize-schema=always", upgrade.missing, script, SCHEMA_LOCATION, script);
                continue;
            }
            new ResourceDatabasePopulator(new ClassPathResource(SCHEMA_LOCATION + script)).execute(dataSource);
            log.info("Interception log database: added {} ({})", upgrade.missing, script);
        }
    }

    /** What a schema of an earlier version lacks: a query that fails without it, and the script that adds it. */
    private enum Upgrade {
        HITS("SELECT hits FROM biz_sys_ratelimit_log WHERE 1 = 0", "add-hits",
                "the column hits of biz_sys_ratelimit_log"),
        REASON("SELECT reason FROM biz_sys_ratelimit_log WHERE 1 = 0", "add-reason",
                "the column reason of biz_sys_ratelimit_log"),
        CONFIG_COPY("SELECT config_key FROM biz_sys_ratelimit_config WHERE 1 = 0", "add-config-copy",
                "the table biz_sys_ratelimit_config (the durable copy of the config hash)");

        private final String probe;
        private final String script;
        private final String missing;

        Upgrade(String probe, String script, String missing) {
            this.probe = probe;
            this.script = script;
            this.missing = missing;
        }
    }

    /** Whether the query runs: its table and columns exist. */
    private boolean answers(String query) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeQuery(query).close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static VendorDatabaseIdProvider vendors() {
        Properties products = new Properties();
        products.setProperty("H2", "h2");
        products.setProperty("MySQL", "mysql");
        products.setProperty("MariaDB", "mysql");
        products.setProperty("PostgreSQL", "postgresql");
        VendorDatabaseIdProvider provider = new VendorDatabaseIdProvider();
        provider.setProperties(products);
        return provider;
    }
}
