package dev.ratelimit.console;

import dev.ratelimit.console.access.ConsoleAccessPolicy;
import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.HmacSigner;
import dev.ratelimit.console.access.LoginController;
import dev.ratelimit.console.access.LoginThrottle;
import dev.ratelimit.console.access.PasswordLogin;
import dev.ratelimit.console.audit.AuditController;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.DatabaseAuditTrail;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.audit.LoggedAuditTrail;
import dev.ratelimit.console.dynamic.DynamicRulesController;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.console.logs.LogsController;
import dev.ratelimit.console.logs.OverviewController;
import dev.ratelimit.console.rules.RulesController;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.apiindex.autoconfigure.ApiIndexAutoConfiguration;
import dev.ratelimit.interceptor.autoconfigure.InterceptionLogProperties;
import dev.ratelimit.interceptor.autoconfigure.RateLimitAutoConfiguration;
import dev.ratelimit.interceptor.log.database.LogDatabase;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Serves the operations console at {@code ratelimit.console.path} in any servlet app that has the module. */
@AutoConfiguration(after = {RateLimitAutoConfiguration.class, ApiIndexAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "ratelimit.console", name = "enabled", matchIfMissing = true)
@ConditionalOnBean({SysConfigEditor.class, ApiIndexRepository.class})
@EnableConfigurationProperties(ConsoleProperties.class)
@Import({ConsoleModel.class, OverviewController.class, RulesController.class, DynamicRulesController.class,
        LogsController.class, AuditController.class})
public class ConsoleAutoConfiguration {

    static final String ECHARTS_DIST = "classpath:/META-INF/resources/webjars/echarts/5.3.1/dist/";

    @Bean
    @ConditionalOnMissingBean
    AuditTrail ratelimitConsoleAuditTrail() {
        return new LoggedAuditTrail();
    }

    @Bean
    LogClock ratelimitConsoleLogClock(ObjectProvider<InterceptionLogProperties> log) {
        InterceptionLogProperties properties = log.getIfAvailable();
        return new LogClock(properties == null ? Clock.systemDefaultZone() : Clock.system(properties.timeZone()));
    }

    @Bean
    AuditedEditor ratelimitConsoleEditor(SysConfigEditor editor, AuditTrail trail) {
        return new AuditedEditor(editor, trail, Clock.systemUTC());
    }

    @Bean
    HmacSigner ratelimitConsoleSigner(ConsoleProperties properties) {
        return HmacSigner.of(properties.secret());
    }

    @Bean
    FilterRegistrationBean<ConsoleFilter> ratelimitConsoleFilter(ConsoleProperties properties,
                                                                 ConsoleAccessPolicy policy, HmacSigner signer) {
        FilterRegistrationBean<ConsoleFilter> registration = new FilterRegistrationBean<>(
                new ConsoleFilter(properties.path(), policy, signer));
        registration.addUrlPatterns(properties.path(), properties.path() + "/*");
        return registration;
    }

    @Bean
    WebMvcConfigurer ratelimitConsoleAssets(ConsoleProperties properties) {
        return new WebMvcConfigurer() {
            @Override
            public void addResourceHandlers(ResourceHandlerRegistry registry) {
                registry.addResourceHandler(properties.path() + "/assets/**")
                        .addResourceLocations("classpath:/ratelimit-console/assets/", ECHARTS_DIST);
            }
        };
    }

    /** The audit trail in the database, beside the interception log, when the app has one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(SqlSessionFactory.class)
    @ConditionalOnBean(LogDatabase.class)
    static class DatabaseAuditConfiguration {

        @Bean
        @ConditionalOnMissingBean
        AuditTrail ratelimitConsoleDatabaseAuditTrail(LogDatabase database, InterceptionLogProperties log) {
            return new DatabaseAuditTrail(database, log.timeZone());
        }
    }

    /** The built-in password login, unless the app declares its own {@link ConsoleAccessPolicy}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(ConsoleAccessPolicy.class)
    @Import(LoginController.class)
    static class PasswordLoginConfiguration {

        private static final Logger log = LoggerFactory.getLogger(ConsoleAutoConfiguration.class);

        @Bean
        PasswordLogin ratelimitConsolePasswordLogin(ConsoleProperties properties, HmacSigner signer) {
            String password = properties.password();
            if (password == null || password.isBlank()) {
                byte[] random = new byte[18];
                new SecureRandom().nextBytes(random);
                password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
                log.warn("Rate limit console: no ratelimit.console.password set; generated password for user '{}': {}",
                        properties.username(), password);
            }
            return new PasswordLogin(properties.username(), password, signer, properties.sessionTimeout(),
                    properties.path(), Clock.systemUTC());
        }

        @Bean
        LoginThrottle ratelimitConsoleLoginThrottle() {
            return new LoginThrottle(Clock.systemUTC());
        }
    }
}
