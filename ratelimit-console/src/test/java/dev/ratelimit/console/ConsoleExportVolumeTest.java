package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An export of more rows than a chunk the database is read by and than the window the Excel writer keeps in
 * memory (so rows go through its temporary file), up to the row cap: every row arrives, once.
 */
class ConsoleExportVolumeTest {

    private static final int CAP = 2_500;
    private static final int LOGGED = CAP + 500;

    @Test
    void anExportBeyondAChunkHoldsEveryRowUpToTheCap() throws IOException {
        try (RedisServerProcess redis = RedisServerProcess.start();
             ConfigurableApplicationContext app = FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY,
                     "spring.datasource.url=jdbc:h2:mem:console-export-volume;DB_CLOSE_DELAY=-1",
                     "ratelimit.console.export-row-cap=" + CAP)) {
            BatchingInterceptionLog log = app.getBean(BatchingInterceptionLog.class);
            Instant now = Instant.now();
            for (int i = 0; i < LOGGED; i++) {
                log.record(new Interception(now, RuleId.of("fixture", "LimitedController.user"), "user-" + i, "203.0.113.9", "GET",
                        "/user", Dimension.USER, 50, 60, false));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> log.stats().written() == LOGGED);

            byte[] export = ConsoleSession.signedIn(FixtureApplication.port(app)).bytes("/ratelimit-console/logs/export");
            try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(export))) {
                Sheet sheet = workbook.getSheetAt(0);
                Set<String> users = new HashSet<>();
                for (int row = 1; row <= sheet.getLastRowNum(); row++) {
                    users.add(sheet.getRow(row).getCell(LogColumn.USER.ordinal()).getStringCellValue());
                }
                assertThat(sheet.getLastRowNum()).as("rows below the header").isEqualTo(CAP);
                assertThat(users).as("each row once").hasSize(CAP).allMatch(user -> user.startsWith("user-"));
            }
        }
    }
}
