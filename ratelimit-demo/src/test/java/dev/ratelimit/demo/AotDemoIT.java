package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as the build processed it ahead of time ({@code spring-boot:process-aot}), started from its
 * jar with {@code -Dspring.aot.enabled=true}: its bean definitions come from the generated code (a
 * start without them fails), and it answers the README's quick start and serves the console, the
 * interception log on H2 through MyBatis included. Its own redis-server, as the quick start's. And the
 * processing took the hints of the starter, the API index and the console into the native image's metadata.
 */
class AotDemoIT {

    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Pattern CSRF = Pattern.compile("name=\"ratelimit_csrf\" value=\"([^\"]+)\"");
    private static final String NATIVE_METADATA =
            "META-INF/native-image/dev.ratelimit/ratelimit-demo/reachability-metadata.json";

    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Process demo;

    @AfterEach
    void stop() throws InterruptedException {
        if (demo != null) {
            demo.destroy();
            if (!demo.waitFor(1, TimeUnit.MINUTES)) {
                demo.destroyForcibly();
            }
        }
    }

    @Test
    void theAotProcessedDemoAnswersTheQuickStartAndServesTheConsole(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("demo.log");
        demo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dspring.aot.enabled=true", "-jar", System.getProperty("demo.jar"), "--server.port=0")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        String started = Awaitility.await("the demo started").atMost(Duration.ofMinutes(2))
                .until(() -> Files.readString(output), log -> log.contains("Started DemoApplication")
                        || !demo.isAlive());
        Matcher port = PORT.matcher(started);
        assertThat(port.find()).as("the port in\n%s", started).isTrue();
        String base = "http://127.0.0.1:" + port.group(1);

        List<Integer> hello = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            hello.add(get(base + "/api/hello?usercode=me").statusCode());
        }
        assertThat(hello).as("the quick start's four requests").containsExactly(200, 200, 200, 429);

        String login = get(base + "/ratelimit-console/login").body();
        Matcher csrf = CSRF.matcher(login);
        assertThat(csrf.find()).as("the login form's token in\n%s", login).isTrue();
        HttpResponse<String> signedIn = post(base + "/ratelimit-console/login",
                "ratelimit_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8)
                        + "&username=admin&password=demo");
        assertThat(signedIn.statusCode()).as("signed in and sent on").isEqualTo(302);
        // The API index is written once the app is ready, and the interception log in batches: both in the background.
        Awaitility.await("the rule on the console's rules page").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(get(base + "/ratelimit-console/rules").body())
                        .contains("demo.DemoController.hello"));
        Awaitility.await("the rejection in the console's interceptions").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(get(base + "/ratelimit-console/logs").body())
                        .contains("demo.DemoController.hello"));

        assertThat(Files.readString(output)).as("what the demo logged").doesNotContain("ERROR", "Exception");
    }

    @Test
    void theProcessingTookEveryModulesHintsIntoTheNativeImageMetadata() throws Exception {
        String metadata;
        try (JarFile jar = new JarFile(System.getProperty("demo.jar"))) {
            metadata = new String(jar.getInputStream(jar.getEntry(NATIVE_METADATA)).readAllBytes(),
                    StandardCharsets.UTF_8).replace("\\/", "/");
        }
        assertThat(metadata).contains("dev/ratelimit/interceptor/**/*.lua", "ratelimit/sql/upgrade/*.sql",
                "dev/ratelimit/console/report/LogReportMapper.xml", "dev/ratelimit/apiindex/*.lua",
                "templates/ratelimit-console/*.html", "\"dev.ratelimit.console.audit.AuditMapper\"");
    }

    private HttpResponse<String> get(String uri) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String uri, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).header("Content-Type",
                "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
