package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The limiter's meters as Prometheus scrapes them from the demo ({@code micrometer-registry-prometheus},
 * {@code /actuator/prometheus}), and the Grafana dashboard in {@code dashboards/} checked against that
 * scrape: every series it queries, with every label it filters or groups by and every outcome it names.
 */
class PrometheusDashboardTest {

    private static final Path DASHBOARD = Path.of("..", "dashboards", "grafana-ratelimit.json");
    /** A sample line: name, then its labels if any. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{([^}]*)})? ", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");
    private static final Pattern SERIES = Pattern.compile("\\b(ratelimit_[a-z_]+)(?:\\{([^}]*)})?");
    private static final Pattern BY = Pattern.compile("\\bby \\(([^)]*)\\)");
    /** Labels Prometheus adds at scrape time, not in the app's output. */
    private static final Set<String> SCRAPE_LABELS = Set.of("instance", "job");

    @Test
    void theScrapeHasTheDocumentedMetersAndTheDashboardQueriesOnlyWhatItHas() throws IOException {
        String scrape;
        try (ConfigurableApplicationContext demo = DemoApplicationTest.startDemo()) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));
            for (int i = 0; i < 4; i++) {
                http.status("/api/hello?usercode=grafana");
            }
            scrape = http.get("/actuator/prometheus").body();
        }
        Map<String, Set<String>> labels = labelsBySeries(scrape);

        assertThat(scrape).contains("ratelimit_requests_total{module=\"demo\",outcome=\"allowed\",rule=\"DemoController.hello\"} 3.0")
                .contains("ratelimit_requests_total{module=\"demo\",outcome=\"blocked\",rule=\"DemoController.hello\"} 1.0")
                .contains("# TYPE ratelimit_decision_seconds histogram")
                .containsPattern("ratelimit_decision_seconds_count 4(\\.0)?\\n")
                .contains("ratelimit_circuit_open 0.0")
                .contains("ratelimit_log_dropped_total 0.0");
        assertThat(labels.get("ratelimit_decision_seconds_bucket")).contains("le");

        List<String> expressions = expressions(JsonMapper.builder().build().readTree(Files.readString(DASHBOARD)));
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(7);
        Set<String> queried = new HashSet<>();
        for (String expression : expressions) {
            Matcher series = SERIES.matcher(expression);
            while (series.find()) {
                String name = series.group(1);
                queried.add(name);
                assertThat(labels).as("%s in %s", name, expression).containsKey(name);
                if (series.group(2) != null) {
                    Matcher label = LABEL.matcher(series.group(2).replace("=~", "="));
                    while (label.find()) {
                        assertThat(labels.get(name)).as("label %s of %s", label.group(1), name).contains(label.group(1));
                        if (label.group(1).equals("outcome")) {
                            assertThat(Arrays.stream(Outcome.values()).map(Outcome::tag)).as("an outcome the limiter counts")
                                    .contains(label.group(2));
                        }
                    }
                }
                Matcher by = BY.matcher(expression);
                while (by.find()) {
                    for (String grouped : by.group(1).split(",")) {
                        String label = grouped.strip();
                        if (!SCRAPE_LABELS.contains(label)) {
                            assertThat(labels.get(name)).as("grouped by %s in %s", label, expression).contains(label);
                        }
                    }
                }
            }
        }
        assertThat(queried).as("the dashboard shows every meter").containsAll(List.of("ratelimit_requests_total",
                "ratelimit_decision_seconds_bucket", "ratelimit_circuit_open", "ratelimit_log_dropped_total"));
    }

    /** Every series of the scrape with the labels it carries. */
    private static Map<String, Set<String>> labelsBySeries(String scrape) {
        Map<String, Set<String>> labels = new HashMap<>();
        Matcher sample = SAMPLE.matcher(scrape);
        while (sample.find()) {
            Set<String> names = labels.computeIfAbsent(sample.group(1), name -> new HashSet<>());
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    names.add(label.group(1));
                }
            }
        }
        return labels;
    }

    private static List<String> expressions(JsonNode dashboard) {
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asString());
            }
        }
        dashboard.get("templating").get("list").forEach(variable -> expressions.add(variable.get("definition").asString()));
        return expressions;
    }
}
