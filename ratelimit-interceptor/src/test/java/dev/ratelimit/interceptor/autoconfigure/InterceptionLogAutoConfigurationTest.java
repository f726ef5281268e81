package dev.ratelimit.interceptor.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.internal.log.writer.LogRetention;
import dev.ratelimit.interceptor.testsupport.Interceptions;
import dev.ratelimit.interceptor.testsupport.LogTable;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** When the database log of a servlet web app switches on, what replaces it, and how its properties bind. */
class InterceptionLogAutoConfigurationTest {

    private final WebApplicationContextRunner withDataSource = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    InterceptionLogAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    @Test
    void aDataSourceAndMyBatisTurnTheLogOnAndAnEmbeddedDatabaseGetsTheTable() {
        withDataSource.run(context -> {
            assertThat(context).hasSingleBean(LogDatabase.class)
                    .hasSingleBean(LogRetention.class);
            assertThat(context.getBean(InterceptionLog.class)).isInstanceOf(BatchingInterceptionLog.class);

            context.getBean(InterceptionLog.class)
                    .record(Interceptions.of(Instant.now(), "shop", "Cart.add", "ann", "10.0.0.9", "/cart"));
            LogTable table = LogTable.of(context);
            // the writer makes the table with its first batch: until then there is none to read
            await().ignoreExceptionsInstanceOf(BadSqlGrammarException.class)
                    .until(() -> table.rows("module = 'shop' AND rule = 'Cart.add'") == 1);
        });
    }

    @Test
    void withoutADataSourceTheLogIsOff() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(InterceptionLogAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LogDatabase.class)
                        .doesNotHaveBean(InterceptionLog.class));
    }

    @Test
    void withoutMyBatisTheLogIsOff() {
        withDataSource.withClassLoader(new FilteredClassLoader(SqlSessionFactory.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LogDatabase.class)
                        .doesNotHaveBean(InterceptionLog.class));
    }

    @Test
    void thePropertyTurnsItOff() {
        withDataSource.withPropertyValues("ratelimit.log.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LogDatabase.class));
    }

    @Test
    void anAppsOwnInterceptionLogReplacesTheWriterAndTheDatabaseStays() {
        withDataSource.withBean(InterceptionLog.class, () -> interception -> { })
                .run(context -> assertThat(context).doesNotHaveBean(BatchingInterceptionLog.class)
                        .hasSingleBean(InterceptionLog.class).hasSingleBean(LogDatabase.class));
    }

    @Test
    void propertiesBindWithTheirDefaults() {
        withDataSource.run(context -> {
            InterceptionLogProperties properties = context.getBean(InterceptionLogProperties.class);
            assertThat(properties.timeZone()).isEqualTo(ZoneId.systemDefault());
            assertThat(properties.initializeSchema()).isEqualTo(DatabaseInitializationMode.EMBEDDED);
            assertThat(properties.writer()).isEqualTo(new InterceptionLogProperties.Writer(10_000,
                    Duration.ofSeconds(1), 500, 3,
                    Duration.ofSeconds(1), Duration.ofSeconds(5)));
            assertThat(properties.retention()).isEqualTo(new InterceptionLogProperties.Retention(90, 1000,
                    Duration.ofDays(1)));
            assertThat(properties.report()).isEqualTo(new InterceptionLogProperties.Report(200, 100, 366));
        });
        withDataSource.withPropertyValues("ratelimit.log.time-zone=Asia/Tokyo", "ratelimit.log.initialize-schema=never",
                "ratelimit.log.retention.days=0", "ratelimit.log.writer.queue-capacity=5")
                .run(context -> {
                    InterceptionLogProperties properties = context.getBean(InterceptionLogProperties.class);
                    assertThat(properties.timeZone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
                    assertThat(properties.initializeSchema()).isEqualTo(DatabaseInitializationMode.NEVER);
                    assertThat(properties.retention().days()).isZero();
                    assertThat(properties.writer().queueCapacity()).isEqualTo(5);
                });
    }

    @Test
    void aBadValueFailsTheStartAndNamesTheProperty() {
        withDataSource.withPropertyValues("ratelimit.log.writer.batch-size=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ratelimit.log.writer.batch-size");
        });
        withDataSource.withPropertyValues("ratelimit.log.retention.days=-1").run(context ->
                assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ratelimit.log.retention.days"));
    }
}
