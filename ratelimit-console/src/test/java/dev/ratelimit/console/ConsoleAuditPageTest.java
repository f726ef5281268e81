package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.audit.MissingLogDatabase;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.util.HtmlUtils;

/**
 * An app without the interception log's database has its changes in the application log, and the audit page
 * says what the app lacks: for each thing it may lack ({@link MissingLogDatabase}), an app that lacks just that,
 * an H2 database otherwise (not "no database" to an app with one).
 */
class ConsoleAuditPageTest {

    private static final String H2 = "spring.datasource.url=jdbc:h2:mem:console-audit-page;DB_CLOSE_DELAY=-1";

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(MissingLogDatabase.class)
    void theAuditPageSaysWhatTheAppLacks(MissingLogDatabase missing) {
        try (ConfigurableApplicationContext app = appLacking(missing)) {
            HttpResponse<String> page = ConsoleSession.signedIn(FixtureApplication.port(app)).get("/ratelimit-console/audit");

            String said = ResourceBundle.getBundle("ratelimit.messages", Locale.ENGLISH).getString(missing.auditMessageKey());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains(HtmlUtils.htmlEscape(said)).contains("logger ratelimit.audit");
        }
    }

    private static ConfigurableApplicationContext appLacking(MissingLogDatabase missing) {
        return switch (missing) {
            case LOG_OFF -> FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY, H2,
                    "ratelimit.log.enabled=false");
            case NO_DATA_SOURCE -> FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY,
                    "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
            case SEVERAL_DATA_SOURCES -> FixtureApplication.start(TwoDatabases.class, redis.port(),
                    ConsoleSession.PASSWORD_PROPERTY);
            case NO_MYBATIS -> withClassLoader(new FilteredClassLoader("org.apache.ibatis"),
                    () -> FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY, H2));
        };
    }

    /** Spring Boot takes the thread's class loader for the app, and so for what its conditions find. */
    private static ConfigurableApplicationContext withClassLoader(ClassLoader loader, Supplier<ConfigurableApplicationContext> start) {
        Thread thread = Thread.currentThread();
        ClassLoader own = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return start.get();
        } finally {
            thread.setContextClassLoader(own);
        }
    }

    /** The fixture app with two databases, neither primary. */
    @Configuration(proxyBeanMethods = false)
    @Import(FixtureApplication.class)
    static class TwoDatabases {

        @Bean
        DataSource orders() {
            return DataSourceBuilder.create().url("jdbc:h2:mem:console-audit-orders").build();
        }

        @Bean
        DataSource customers() {
            return DataSourceBuilder.create().url("jdbc:h2:mem:console-audit-customers").build();
        }
    }
}
