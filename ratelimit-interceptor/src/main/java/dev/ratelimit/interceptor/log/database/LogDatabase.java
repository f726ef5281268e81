package dev.ratelimit.interceptor.log.database;

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
    private static final String SCHEMA_LOCATION = "ratelimit/sql/";

    private static final Logger log = LoggerFactory.getLogger(LogDatabase.class);

    private final DataSource dataSource;
    private final DatabaseInitializationMode schemaInitialization;
    private final Set<Class<?>> mappers = new LinkedHashSet<>();
    private volatile SqlSessionFactory sessions;

    /**
     * @param schemaInitialization when to create the table from the packaged DDL on first use:
     *                             {@code EMBEDDED} only for an in-memory database, {@code ALWAYS}, or {@code NEVER}
     */
    public LogDatabase(DataSource dataSource, DatabaseInitializationMode schemaInitialization) {
        this.dataSource = dataSource;
        this.schemaInitialization = schemaInitialization;
    }

    /** Registers a mapper interface (with its XML beside it); a new one only before the first session. */
    public synchronized void addMapper(Class<?> mapper) {
        if (mappers.contains(mapper)) {
            return;
        }
        if (sessions != null) {
            throw new IllegalStateException("Mappers must be added before the first session is opened");
        }
        mappers.add(mapper);
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
        String databaseId = vendors().getDatabaseId(dataSource);
        initializeSchema(databaseId);
        Configuration configuration = new Configuration(
                new Environment("ratelimit-log", new JdbcTransactionFactory(), dataSource));
        configuration.setDatabaseId(databaseId);
        mappers.forEach(configuration::addMapper);
        sessions = new DefaultSqlSessionFactory(configuration);
        return sessions;
    }

    private void initializeSchema(String databaseId) {
        if (schemaInitialization == DatabaseInitializationMode.NEVER
                || (schemaInitialization == DatabaseInitializationMode.EMBEDDED
                    && !EmbeddedDatabaseConnection.isEmbedded(dataSource))) {
            return;
        }
        if (databaseId == null) {
            log.warn("No interception log DDL for this database; create the table biz_sys_ratelimit_log by hand");
            return;
        }
        new ResourceDatabasePopulator(new ClassPathResource(SCHEMA_LOCATION + databaseId + ".sql")).execute(dataSource);
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
