package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.internal.log.writer.BatchingInterceptionLog;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.ZipFile;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFFont;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The log pages and the export, over an app whose interceptions land in its H2 database. */
class ConsoleLogsTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String FORMULA = "=cmd|' /C calc'!A0";

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static ConsoleSession session;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        app = FixtureApplication.start(redis.port(), "ratelimit.console.password=s3cret",
                "spring.datasource.url=jdbc:h2:mem:console-logs;DB_CLOSE_DELAY=-1");
        HttpProbe http = new HttpProbe(FixtureApplication.port(app));
        for (int i = 0; i < 5; i++) {
            http.get("/stacked?usercode=mallory");
        }
        BatchingInterceptionLog log = app.getBean(BatchingInterceptionLog.class);
        log.record(new Interception(Instant.now(), RuleId.of("fixture", "LimitedController.user"), FORMULA, "203.0.113.9", "GET",
                "/user?q=<script>alert(1)</script>", Dimension.USER, 50, 60, false));
        log.record(new Interception(Instant.now(), RuleId.of("fixture", "LimitedController.user"), "plus+sign", "203.0.113.10",
                "GET", "/user", Dimension.USER, 50, 60, false));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> log.stats().written() == 5);
        session = new ConsoleSession(FixtureApplication.port(app));
        assertThat(session.login("admin", "s3cret").statusCode()).isEqualTo(302);
    }

    @AfterAll
    static void stop() {
        app.close();
        redis.close();
    }

    @Test
    void theOverviewCountsTodaysInterceptionsAndDrawsTheTrend() {
        HttpResponse<String> overview = session.get(CONSOLE + "/");
        assertThat(overview.statusCode()).isEqualTo(200);
        assertThat(overview.body()).contains("id=\"today-count\"").containsPattern("id=\"today-count\"[^>]*>5<")
                .contains("id=\"trend-chart\"").contains("/assets/echarts.min.js");
        assertThat(session.get(CONSOLE + "/assets/echarts.min.js").statusCode()).isEqualTo(200);
    }

    @Test
    void theLogPageFiltersAndEscapesWhatClientsSent() {
        HttpResponse<String> all = session.get(CONSOLE + "/logs");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.body()).doesNotContain("<script>alert(1)</script>").contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                .contains("mallory").contains("LimitedController.stacked#user");

        HttpResponse<String> filtered = session.get(CONSOLE + "/logs?user=mall");
        assertThat(filtered.body()).contains("Total: 3").doesNotContain("203.0.113.9");
        assertThat(session.get(CONSOLE + "/logs?user=%25").body()).contains("Total: 0");
        assertThat(session.get(CONSOLE + "/logs?from=yesterday").body())
                .contains("From: &#39;yesterday&#39; is not a date and time; the range is not applied");
        assertThat(session.get(CONSOLE + "/logs?page=-3&sort=nonsense").statusCode()).isEqualTo(200);
    }

    /** The overview, the per-rule table, the detail rows and the filter all name a rule by its id, a link to its page. */
    @Test
    void aRuleHasOneNameEverywhereAndTheOverviewsNameFindsItsRows() {
        String id = "fixture.LimitedController.stacked#user";
        String rulePage = "href=\"/ratelimit-console/rule?module=fixture&amp;rule=LimitedController.stacked%23user";
        assertThat(session.get(CONSOLE + "/").body()).contains(">" + id + "<");
        HttpResponse<String> logs = session.get(CONSOLE + "/logs?rule=" + id.replace("#", "%23"));

        assertThat(logs.body()).contains("Total: 3").contains(rulePage + "\">" + id + "</a>");
        assertThat(session.get(CONSOLE + "/").body()).contains(rulePage);
        assertThat(session.get(CONSOLE + "/rules").body()).contains(rulePage);
    }

    /** The overview links a day; the inputs show it, and Apply keeps it. */
    @Test
    void aDayFromTheOverviewShowsInTheInputsAndTheZoneIsNamed() {
        HttpResponse<String> overview = session.get(CONSOLE + "/");
        String link = overview.body().replaceAll("(?s).*id=\"today-count\" href=\"([^\"]*)\".*", "$1").replace("&amp;", "&");
        HttpResponse<String> logs = session.get(link);

        assertThat(logs.body()).containsPattern("name=\"from\" value=\"\\d{4}-\\d{2}-\\d{2}T00:00\"")
                .containsPattern("name=\"to\" value=\"\\d{4}-\\d{2}-\\d{2}T00:00\"")
                .contains("From (" + java.time.ZoneId.systemDefault().getId() + ")").contains("Total: 5");
        assertThat(logs.body()).as("a day is charted by the hour").contains("<h2 id=\"chart-title\">Interceptions per hour</h2>");
        String labels = logs.body().replaceAll("(?s).*id=\"daily-chart\" data-labels=\"([^\"]*)\".*", "$1");
        assertThat(labels.split(",")).hasSize(24).allMatch(label -> label.matches("\\d{2}-\\d{2} \\d{2}:00"));
        assertThat(session.get(CONSOLE + "/logs").body()).as("30 days by the day")
                .contains("<h2 id=\"chart-title\">Interceptions per day</h2>");
    }

    @Test
    void aRangeThatEndsBeforeItStartsIsExplainedInTheOperatorsTerms() {
        HttpResponse<String> logs = session.get(CONSOLE + "/logs?from=2026-12-02&to=2026-11-30");

        assertThat(logs.body()).contains("From (2026-12-02 00:00) is not before To (2026-11-30 00:00): the range is "
                + "not applied").contains("Total: 5");
    }

    @Test
    void aPageBeyondTheLastShowsTheLast() {
        assertThat(session.get(CONSOLE + "/logs?page=999999").body()).contains("Page 1 of 1").doesNotContain("1,000,000");
    }

    /** A plus sign in a filter survives every link: the export holds {@code plus+sign}, not {@code plus sign}. */
    @Test
    void everyLinkEncodesWhatTheFilterHolds() throws IOException {
        HttpResponse<String> logs = session.get(CONSOLE + "/logs?user=plus%2Bsign");
        assertThat(logs.body()).contains("Total: 1").contains("user=plus%2Bsign").doesNotContain("user=plus+sign");

        String export = logs.body().replaceAll("(?s).*id=\"export\" href=\"([^\"]*)\".*", "$1").replace("&amp;", "&");
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(session.bytes(export)))) {
            assertThat(workbook.getSheetAt(0).getLastRowNum()).isEqualTo(1);
            assertThat(findCell(workbook.getSheetAt(0), "plus+sign")).isNotNull();
        }
    }

    @Test
    void theExportHoldsExactlyTheFilteredRowsWithLocalizedHeadersAndLiteralFormulas() throws IOException {
        byte[] japanese = session.bytes(CONSOLE + "/logs/export?lang=ja");
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(japanese))) {
            Sheet sheet = workbook.getSheetAt(0);
            assertThat(sheet.getRow(0).getCell(0).getStringCellValue()).isEqualTo("時刻");
            assertThat(sheet.getLastRowNum()).as("every row written")
                    .isEqualTo(app.getBean(BatchingInterceptionLog.class).stats().rows());
            assertThat(hits(sheet)).isEqualTo(5);
            Cell user = findCell(sheet, FORMULA);
            assertThat(user.getCellType()).isEqualTo(CellType.STRING);
            assertThat(user.getCellStyle().getQuotePrefixed()).isTrue();
        }
        byte[] filtered = session.bytes(CONSOLE + "/logs/export?user=mall&lang=en");
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(filtered))) {
            Sheet sheet = workbook.getSheetAt(0);
            assertThat(sheet.getRow(0).getCell(0).getStringCellValue()).isEqualTo("Time");
            assertThat(hits(sheet)).as("mallory's three requests, in one row when they came within a second")
                    .isEqualTo(3);
            for (int row = 1; row <= sheet.getLastRowNum(); row++) {
                assertThat(sheet.getRow(row).getCell(3).getStringCellValue()).isEqualTo("mallory");
            }
        }
    }

    /** The interceptions an export stands for: the sum of its hits column, a number column. */
    private static long hits(Sheet sheet) {
        long hits = 0;
        for (int row = 1; row <= sheet.getLastRowNum(); row++) {
            hits += (long) sheet.getRow(row).getCell(LogColumn.HITS.ordinal()).getNumericCellValue();
        }
        return hits;
    }

    /** Typed cells, a header row in the workbook's font that stays in view and filters, and a default style. */
    @Test
    void theExportIsASpreadsheetAnOperatorCanWorkWith() throws IOException {
        byte[] english = session.bytes(CONSOLE + "/logs/export?lang=en");
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(english))) {
            XSSFSheet sheet = workbook.getSheetAt(0);
            XSSFFont headerFont = sheet.getRow(0).getCell(0).getCellStyle().getFont();
            assertThat(headerFont.getBold()).isTrue();
            assertThat(headerFont.getFontName()).isNotEqualTo("宋体").isNotEqualTo("SimSun");
            assertThat(headerFont.getFontHeightInPoints()).isEqualTo((short) 11);
            assertThat(sheet.getPaneInformation().isFreezePane()).isTrue();
            assertThat(sheet.getPaneInformation().getHorizontalSplitPosition()).isEqualTo((short) 1);
            assertThat(sheet.getCTWorksheet().getAutoFilter().getRef()).isEqualTo("A1:M1");
            Row first = sheet.getRow(1);
            assertThat(first.getCell(0).getCellType()).isEqualTo(CellType.NUMERIC);
            assertThat(DateUtil.isCellDateFormatted(first.getCell(0))).isTrue();
            assertThat(first.getCell(8).getCellType()).isEqualTo(CellType.NUMERIC);
            assertThat(first.getCell(8).getNumericCellValue()).isPositive();
        }
        assertThat(zipEntry(english, "xl/styles.xml")).contains("<cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/>");
    }

    /** openpyxl, the reader of pandas and most scripts, opens it without a warning and reads typed values. */
    @Test
    void openpyxlReadsTheExportWithoutAWarning() throws Exception {
        Path python = Path.of("/usr/bin/python3");
        boolean present = Files.isExecutable(python) && new ProcessBuilder(python.toString(), "-c", "import openpyxl")
                .start().waitFor() == 0;
        if (!present && "true".equals(System.getenv("RATELIMIT_REQUIRE_OPENPYXL"))) {
            throw new IllegalStateException("RATELIMIT_REQUIRE_OPENPYXL=true but openpyxl is missing: "
                    + "apt-get install python3-openpyxl");
        }
        Assumptions.assumeTrue(present, "openpyxl test skipped: apt-get install python3-openpyxl");
        Path file = Files.createTempFile("ratelimit-export-", ".xlsx");
        Files.write(file, session.bytes(CONSOLE + "/logs/export?lang=en"));
        Process reader = new ProcessBuilder(python.toString(), "-W", "always", "-c", String.join("\n",
                "import sys, openpyxl",
                "sheet = openpyxl.load_workbook(sys.argv[1]).active",
                "row = [cell.value for cell in sheet[2]]",
                "print(type(row[0]).__name__, row[8] == 50, sheet.freeze_panes, sheet.auto_filter.ref)"),
                file.toString()).redirectErrorStream(true).start();
        String output = new String(reader.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = reader.waitFor();
        Files.delete(file);

        assertThat(exit).as(output).isZero();
        assertThat(output).isEqualTo("datetime True A2 A1:M1");
    }

    private static String zipEntry(byte[] zip, String name) throws IOException {
        Path file = Files.createTempFile("ratelimit-export-", ".xlsx");
        Files.write(file, zip);
        try (ZipFile entries = new ZipFile(file.toFile())) {
            return new String(entries.getInputStream(entries.getEntry(name)).readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void everyChangeIsAudited() {
        session.get(CONSOLE + "/rules");
        assertThat(session.post(CONSOLE + "/rules/rule", "module", "fixture", "rule", "LimitedController.globalA", "enabled", "true",
                "count", "9", "interval", "60").statusCode()).isEqualTo(302);

        HttpResponse<String> audit = session.get(CONSOLE + "/audit");
        assertThat(audit.body()).containsPattern("<td>admin</td>\\s*<td class=\"wrap\">fixture.LimitedController.globalA.count</td>"
                + "\\s*<td class=\"wrap\">4</td>\\s*<td class=\"wrap\">9</td>");
    }

    private static Cell findCell(Sheet sheet, String value) {
        for (Row row : sheet) {
            for (Cell cell : row) {
                if (cell.getCellType() == CellType.STRING && cell.getStringCellValue().equals(value)) {
                    return cell;
                }
            }
        }
        throw new AssertionError("No cell " + value);
    }
}
