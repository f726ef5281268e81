package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator's day in headless Chromium against the demo: sign in, limit an unannotated endpoint by
 * picking it from the dropdown, watch a request get rejected, find it in the log with the chart drawn.
 * Screenshots go to {@code target/screenshots/}; with {@code -Dratelimit.docs.screenshots=true}, those the guide shows
 * are also written over its pictures in {@code docs/images/}, so that the guide shows today's pages. Needs Debian's chromium and chromium-driver; skipped
 * without them unless {@code RATELIMIT_REQUIRE_BROWSER=true} (as in CI), where their absence fails.
 */
class ConsoleBrowserTest {

    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Path GUIDE_PICTURES = Path.of("..", "docs", "images");
    /** The screenshots the README and the console's page show, by the name of the picture. */
    private static final Map<String, String> GUIDE_SHOWS = Map.of("02-rules", "console-rules.png", "04-dynamic-rule-added", "console-dynamic-rules.png",
            "05-logs", "console-logs.png");

    private static ConfigurableApplicationContext demo;
    private static WebDriver browser;
    private static String base;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        boolean present = Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM);
        if (!present && "true".equals(System.getenv("RATELIMIT_REQUIRE_BROWSER"))) {
            throw new IllegalStateException("RATELIMIT_REQUIRE_BROWSER=true but " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing: apt-get install chromium chromium-driver");
        }
        Assumptions.assumeTrue(present, "Browser test skipped: no " + CHROMIUM + " / " + CHROMEDRIVER);
        demo = DemoApplicationTest.startDemo();
        int port = Integer.parseInt(demo.getEnvironment().getProperty("local.server.port"));
        base = "http://127.0.0.1:" + port;
        http = new HttpProbe(port);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1440,1000", "--lang=en-US");
        // The page's console messages, where Chromium reports anything the Content-Security-Policy blocked.
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build(), options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (demo != null) {
            demo.close();
        }
    }

    @Test
    void anOperatorLimitsAnEndpointAndSeesTheInterception() throws IOException {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(15));
        browser.get(base + "/ratelimit-console/rules");
        wait.until(driver -> driver.getCurrentUrl().endsWith("/ratelimit-console/login"));
        screenshot("01-login");
        browser.findElement(By.name("username")).sendKeys("admin");
        browser.findElement(By.name("password")).sendKeys("demo");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(driver -> driver.findElements(By.id("trend-chart")).size() == 1);

        browser.get(base + "/ratelimit-console/rules");
        wait.until(driver -> driver.getPageSource().contains("demo.DemoController.hello"));
        screenshot("02-rules");

        browser.get(base + "/ratelimit-console/dynamic");
        browser.findElement(By.id("endpoint-search")).sendKeys("/api/open");
        Select endpoints = new Select(browser.findElement(By.id("endpoint-select")));
        endpoints.selectByValue("demo.DemoController.open");
        browser.findElement(By.cssSelector("#add-endpoint-rule input[name=limit]")).sendKeys("1/60");
        screenshot("03-dynamic-rule-picked");
        browser.findElement(By.cssSelector("#add-endpoint-rule button[type=submit]")).click();
        wait.until(driver -> driver.findElement(By.id("endpoint-rules")).getText().contains("demo.DemoController.open"));
        screenshot("04-dynamic-rule-added");

        assertThat(http.status("/api/open?usercode=browser-user")).isEqualTo(200);
        wait.until(driver -> http.status("/api/open?usercode=browser-user") == 429);

        browser.get(base + "/ratelimit-console/logs?user=browser-user");
        wait.until(driver -> driver.findElement(By.id("log-rows")).getText().contains("DemoController.open")
                || refreshed(driver));
        wait.until(driver -> "true".equals(driver.findElement(By.id("daily-chart")).getAttribute("data-drawn")));
        assertThat(browser.findElements(By.cssSelector("#daily-chart canvas"))).isNotEmpty();
        screenshot("05-logs");

        browser.get(base + "/ratelimit-console/");
        wait.until(driver -> "true".equals(driver.findElement(By.id("trend-chart")).getAttribute("data-drawn")));
        screenshot("06-overview");

        // The day the overview links shows in the From/To inputs, and Apply keeps it.
        browser.findElement(By.id("today-count")).click();
        wait.until(driver -> driver.getCurrentUrl().contains("/logs?from="));
        String from = browser.findElement(By.name("from")).getAttribute("value");
        assertThat(from).matches("\\d{4}-\\d{2}-\\d{2}T00:00");
        browser.findElement(By.cssSelector("#log-filter button[type=submit]")).click();
        wait.until(driver -> driver.getCurrentUrl().contains("from=" + from.replace(":", "%3A")));
        assertThat(browser.findElement(By.name("from")).getAttribute("value")).isEqualTo(from);

        // A refused form comes back by post/redirect/get, in the operator's language, with what was typed.
        browser.get(base + "/ratelimit-console/dynamic?lang=ja");
        browser.findElement(By.cssSelector("#add-uri-rule input[name=pattern]")).sendKeys("/api/open");
        browser.findElement(By.cssSelector("#add-uri-rule input[name=limit]")).sendKeys("0/60");
        browser.findElement(By.cssSelector("#add-uri-rule button[type=submit]")).click();
        wait.until(driver -> driver.findElements(By.id("error")).size() == 1);
        assertThat(browser.getCurrentUrl()).contains("/dynamic?").contains("refused=");
        assertThat(browser.findElement(By.id("error")).getText()).startsWith("dynuri./api/open: 制限は");
        assertThat(browser.findElement(By.cssSelector("#add-uri-rule input[name=limit]")).getAttribute("value"))
                .isEqualTo("0/60");
        screenshot("08-refused-ja");
        browser.navigate().refresh();
        assertThat(browser.findElements(By.id("error"))).as("a refresh shows the page again, posts nothing").hasSize(1);
        browser.get(base + "/ratelimit-console/dynamic?lang=en");
        browser.get(base + "/ratelimit-console/audit?lang=zh_CN");
        wait.until(driver -> driver.getPageSource().contains("dyn.demo.DemoController.open"));
        screenshot("07-audit-zh-CN");

        assertThat(browser.manage().logs().get(LogType.BROWSER).getAll()).extracting(LogEntry::getMessage)
                .as("nothing blocked by the Content-Security-Policy")
                .noneMatch(message -> message.contains("Content Security Policy"));
    }

    /**
     * During a load on two instances, the overview redraws itself: the blocked count of the live chart
     * grows without a reload, and both instances are listed.
     */
    @Test
    void theOverviewShowsTheLiveTrafficOfTwoInstances() throws Exception {
        ConfigurableApplicationContext second = SpringApplication.run(DemoApplication.class, "--server.port=0",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + demo.getEnvironment().getProperty("spring.data.redis.port"),
                "--spring.datasource.url=jdbc:h2:mem:second-demo;DB_CLOSE_DELAY=-1");
        List<HttpProbe> instances = List.of(http,
                new HttpProbe(Integer.parseInt(second.getEnvironment().getProperty("local.server.port"))));
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread load = new Thread(() -> {
            for (int i = 0; loading.get(); i++) {
                instances.get(i % 2).status("/api/hello?usercode=live-load");
            }
        }, "live-load");
        load.start();
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(40));
            signIn(wait);
            browser.get(base + "/ratelimit-console/?lang=en");
            wait.until(driver -> driver.findElements(By.cssSelector("#live-instances tr[data-instance]")).size() == 2);
            long blocked = wait.until(driver -> liveBlocked(driver) > 0 ? liveBlocked(driver) : null);
            wait.until(driver -> liveBlocked(driver) > blocked);
            assertThat(browser.findElement(By.id("live-rules")).getText()).contains("demo.DemoController.hello");
            assertThat(browser.findElements(By.cssSelector("#live-chart canvas"))).isNotEmpty();
            browser.manage().window().setSize(new Dimension(1440, 1800));
            screenshot("09-overview-live");
            new Select(browser.findElement(By.id("live-span"))).selectByValue("7d");
            wait.until(driver -> "7d".equals(driver.findElement(By.id("live")).getAttribute("data-span")));
            assertThat(liveBlocked(browser)).as("the week's blocked requests, the current hour included").isPositive();

            browser.findElement(By.cssSelector("#live-rules a")).click();
            wait.until(driver -> driver.getCurrentUrl().contains("/ratelimit-console/rule?module=demo"));
            assertThat(browser.findElement(By.id("rule-id")).getText()).isEqualTo("demo.DemoController.hello");
            wait.until(driver -> driver.findElements(By.cssSelector("#live-instances tr[data-instance]")).size() == 2);
            long ruleBlocked = wait.until(driver -> liveBlocked(driver) > 0 ? liveBlocked(driver) : null);
            wait.until(driver -> liveBlocked(driver) > ruleBlocked);
            assertThat(browser.findElement(By.id("rule-log")).getText()).contains("live-load");
            screenshot("10-rule-page");
            // What each limit would have refused of the rule's demand: drawn, the client named, the suggestion offered.
            wait.until(driver -> driver.findElement(By.id("rule-advice")).getAttribute("data-suggested-limit") != null
                    && driver.findElement(By.id("advice-clients")).getText().contains("USER:live-load"));
            assertThat(browser.findElements(By.cssSelector("#advice-chart canvas"))).isNotEmpty();
            assertThat(Long.parseLong(browser.findElement(By.id("rule-advice")).getAttribute("data-suggested-limit")))
                    .as("live-load asks far more than 3 in a window").isGreaterThan(3);
            assertThat(browser.findElement(By.id("advice-apply")).isDisplayed()).isTrue();
            assertThat(browser.findElement(By.id("advice-summary")).getText()).isNotBlank();
            screenshot("11-rule-advice");
            // A rule of another algorithm: its requests per window, drawn once the instances have written them.
            for (int i = 0; i < 8; i++) {
                instances.get(i % 2).status("/api/quote?usercode=quoting");
            }
            browser.get(base + "/ratelimit-console/rule?module=demo&rule=DemoController.quote&lang=en");
            wait.until(driver -> driver.findElement(By.id("windows-summary")).getText().contains("busiest window had"));
            assertThat(browser.findElements(By.cssSelector("#windows-chart canvas"))).isNotEmpty();
            assertThat(browser.findElements(By.id("rule-advice"))).as("no what-if for a sliding window").isEmpty();
            screenshot("12-rule-windows");
            browser.manage().window().setSize(new Dimension(1440, 1000));
        } finally {
            browser.manage().deleteAllCookies();
            loading.set(false);
            load.join();
            second.close();
        }
    }

    private static long liveBlocked(WebDriver driver) {
        String blocked = driver.findElement(By.id("live-chart")).getAttribute("data-blocked");
        return blocked == null ? 0 : Long.parseLong(blocked);
    }

    /** Signs in unless this browser already has: the tests share it, in any order, and this one signs out after. */
    private static void signIn(WebDriverWait wait) {
        browser.get(base + "/ratelimit-console/");
        if (browser.getCurrentUrl().endsWith("/ratelimit-console/login")) {
            browser.findElement(By.name("username")).sendKeys("admin");
            browser.findElement(By.name("password")).sendKeys("demo");
            browser.findElement(By.cssSelector("button[type=submit]")).click();
            wait.until(driver -> driver.findElements(By.id("trend-chart")).size() == 1);
        }
    }

    /** The log writer is asynchronous: reload until the row is there. */
    private static boolean refreshed(WebDriver driver) {
        driver.navigate().refresh();
        return false;
    }

    private static void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
        if (Boolean.getBoolean("ratelimit.docs.screenshots") && GUIDE_SHOWS.containsKey(name)) {
            Files.write(GUIDE_PICTURES.resolve(GUIDE_SHOWS.get(name)), png);
        }
    }
}
