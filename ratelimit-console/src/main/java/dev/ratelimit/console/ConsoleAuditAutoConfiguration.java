package dev.ratelimit.console;

import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.DatabaseAuditTrail;
import dev.ratelimit.interceptor.autoconfigure.InterceptionLogAutoConfiguration;
import dev.ratelimit.interceptor.autoconfigure.InterceptionLogProperties;
import dev.ratelimit.interceptor.log.database.LogDatabase;
import org.apache.ibatis.session.SqlSessionFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/** The console's audit trail in the table beside the interception log, when the app has that database. */
@AutoConfiguration(after = InterceptionLogAutoConfiguration.class, before = ConsoleAutoConfiguration.class)
@ConditionalOnClass(SqlSessionFactory.class)
@ConditionalOnBean(LogDatabase.class)
@ConditionalOnProperty(prefix = "ratelimit.console", name = "enabled", matchIfMissing = true)
public class ConsoleAuditAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AuditTrail ratelimitConsoleDatabaseAuditTrail(LogDatabase database, InterceptionLogProperties log) {
        return new DatabaseAuditTrail(database, log.timeZone());
    }
}
