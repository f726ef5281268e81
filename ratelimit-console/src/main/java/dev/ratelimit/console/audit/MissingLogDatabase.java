package dev.ratelimit.console.audit;

import java.util.Arrays;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * What an app lacks for the interception log's database, in which the audit trail is kept (what the starter's
 * {@code InterceptionLogAutoConfiguration} waits for): the audit page says it, rather than "no database" to an
 * app that has one.
 */
public enum MissingLogDatabase {

    /** {@code ratelimit.log.enabled=false}. */
    LOG_OFF("logOff"),
    /** No {@link DataSource} bean. */
    NO_DATA_SOURCE("noDataSource"),
    /** Several, none of them primary. */
    SEVERAL_DATA_SOURCES("severalDataSources"),
    /** A database, but not MyBatis, which the log and the audit trail are written with. */
    NO_MYBATIS("noMyBatis");

    private static final String MYBATIS = "org.apache.ibatis.session.SqlSessionFactory";

    private final String key;

    MissingLogDatabase(String key) {
        this.key = key;
    }

    /** The audit page's message: what is missing, and where the changes go instead. */
    public String auditMessageKey() {
        return "console.audit.notKept." + key;
    }

    /** What the app in {@code beans} lacks, first what an operator chose; empty when it has everything the log needs. */
    public static Optional<MissingLogDatabase> of(ConfigurableListableBeanFactory beans, Environment environment) {
        if (!environment.getProperty("ratelimit.log.enabled", Boolean.class, true)) {
            return Optional.of(LOG_OFF);
        }
        String[] dataSources = beans.getBeanNamesForType(DataSource.class, true, false);
        if (dataSources.length == 0) {
            return Optional.of(NO_DATA_SOURCE);
        }
        if (dataSources.length > 1 && Arrays.stream(dataSources)
                .noneMatch(name -> beans.containsBeanDefinition(name) && beans.getBeanDefinition(name).isPrimary())) {
            return Optional.of(SEVERAL_DATA_SOURCES);
        }
        if (!ClassUtils.isPresent(MYBATIS, beans.getBeanClassLoader())) {
            return Optional.of(NO_MYBATIS);
        }
        return Optional.empty();
    }
}
