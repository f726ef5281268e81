package dev.ratelimit.console.autoconfigure;

import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.DatabaseAuditTrail;
import dev.ratelimit.interceptor.log.LogTimeZone;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import org.apache.ibatis.session.SqlSessionFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/** The console's audit trail in the table beside the interception log, when the app has that database. */
@AutoConfiguration(afterName = "dev.ratelimit.interceptor.autoconfigure.InterceptionLogAutoConfiguration",
        before = ConsoleAutoConfiguration.class)
@ConditionalOnClass(SqlSessionFactory.class)
@ConditionalOnBean(LogDatabase.class)
@ConditionalOnProperty(prefix = "ratelimit.console", name = "enabled", matchIfMissing = true)
public class ConsoleAuditAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AuditTrail ratelimitConsoleDatabaseAuditTrail(LogDatabase database, LogTimeZone zone) {
        return new DatabaseAuditTrail(database, zone.zone());
    }
}
