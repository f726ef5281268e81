package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.DurableConfigCopy;
import dev.ratelimit.interceptor.internal.config.copy.DatabaseConfigCopy;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.log.LogTimeZone;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.internal.log.writer.LogRetention;
import java.time.Clock;
import javax.sql.DataSource;
import org.apache.ibatis.session.SqlSessionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The interception log in the app's database, when the app has one DataSource and MyBatis; without
 * either this backs off and {@link RateLimitAutoConfiguration} installs a log that keeps nothing.
 * Runs before it so that the writer is the {@link InterceptionLog} the interceptor gets. In every app the
 * limiter runs in, a web app or a batch job: refused calls are logged, and the rules kept, wherever they are made.
 */
@AutoConfiguration(before = RateLimitAutoConfiguration.class, afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration"})
@ConditionalOnClass({SqlSessionFactory.class, ResourceDatabasePopulator.class, EmbeddedDatabaseConnection.class,
        DatabaseInitializationMode.class})
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "ratelimit.log.enabled", matchIfMissing = true)
@EnableConfigurationProperties({InterceptionLogProperties.class, RateLimitProperties.class})
public class InterceptionLogAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LogTimeZone rateLimitLogTimeZone(InterceptionLogProperties properties) {
        return new LogTimeZone(properties.timeZone());
    }

    @Bean
    @ConditionalOnMissingBean
    LogDatabase rateLimitLogDatabase(DataSource dataSource, InterceptionLogProperties properties) {
        return new LogDatabase(dataSource, properties.initializeSchema());
    }

    @Bean
    @ConditionalOnMissingBean(InterceptionLog.class)
    BatchingInterceptionLog rateLimitDatabaseInterceptionLog(LogDatabase database,
                                                            InterceptionLogProperties properties) {
        InterceptionLogProperties.Writer writer = properties.writer();
        return new BatchingInterceptionLog(database, properties.timeZone(), writer.queueCapacity(),
                writer.coalesceWindow(), writer.batchSize(), writer.attempts(), writer.retryBackoff(),
                writer.shutdownTimeout());
    }

    /** Operators' rules kept in the log's database too, so that they survive Redis and every instance restarting. */
    @Bean
    @ConditionalOnMissingBean(DurableConfigCopy.class)
    @ConditionalOnBooleanProperty(name = "ratelimit.config.durable-copy", matchIfMissing = true)
    DatabaseConfigCopy rateLimitDurableConfigCopy(LogDatabase database, ObjectProvider<RedisKeys> keys,
                                                  RateLimitProperties properties) {
        RedisKeys hash = keys.getIfAvailable(() -> new RedisKeys(properties.redis().keyPrefix()));
        return new DatabaseConfigCopy(database, hash.sysconfig(), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    LogRetention rateLimitLogRetention(LogDatabase database, InterceptionLogProperties properties) {
        InterceptionLogProperties.Retention retention = properties.retention();
        return new LogRetention(database, retention.days(), retention.batchSize(), retention.interval(),
                Clock.system(properties.timeZone()));
    }
}
