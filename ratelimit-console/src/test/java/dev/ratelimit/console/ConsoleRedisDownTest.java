package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.rules.ConsoleRules;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * While Redis does not answer, every page of the console ({@link ConsolePages}, from its handler mappings)
 * degrades as the overview does: 200 with what it could read, or 503 with the console's notice that Redis did
 * not answer in place of what it could not; never the app's error page, never an ERROR in the log. A form
 * posted meanwhile answers the same notice.
 */
class ConsoleRedisDownTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String NOTICE = "Redis did not answer: ";
    private static final String NOTICED = "503 with the notice";

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static ErrorLog errors;
    private static ConsoleSession browser;
    private static Set<String> pages;

    @BeforeAll
    static void startThenStopRedis() {
        redis = RedisServerProcess.start();
        app = FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY,
                "spring.datasource.url=jdbc:h2:mem:console-redis-down;DB_CLOSE_DELAY=-1");
        // after the start: Spring Boot's logging set-up would drop an appender added before
        errors = ErrorLog.capture();
        browser = new ConsoleSession(FixtureApplication.port(app));
        assertThat(browser.login("admin", ConsoleSession.PASSWORD).statusCode()).isEqualTo(302);
        pages = ConsolePages.of(app, ConsolePages.parameterValues(app.getBean(ConsoleRules.class).now(), List.of()));
        redis.stop();
    }

    @AfterAll
    static void stop() {
        errors.close();
        app.close();
        redis.close();
    }

    @Test
    void everyPageAnswersWithWhatItCouldReadOrTheNoticeAndNothingIsLoggedAtError() {
        int before = errors.mark();
        Map<String, String> answered = new TreeMap<>();
        for (String page : pages) {
            answered.put(page, outcome(browser.get(page)));
        }

        assertThat(answered).as("pages read").containsKeys(CONSOLE + "/rules", CONSOLE + "/dynamic", CONSOLE + "/blocked");
        assertThat(answered.entrySet().stream().filter(page -> !Set.of("200", NOTICED).contains(page.getValue()))
                .map(Map.Entry::toString)).as("pages that answered neither 200 nor 503 with the notice").isEmpty();
        assertThat(answered).as("the pages of the rules, read from Redis").containsEntry(CONSOLE + "/rules", NOTICED)
                .containsEntry(CONSOLE + "/dynamic", NOTICED);
        assertThat(errors.since(before)).as("logged at ERROR").isEmpty();
    }

    @Test
    void aFormPostedWhileRedisDoesNotAnswerAnswersTheNotice() {
        int before = errors.mark();
        browser.get(CONSOLE + "/rules/import");
        HttpResponse<String> posted = browser.post(CONSOLE + "/rules/switches", "global", "true", "log", "true");

        assertThat(outcome(posted)).isEqualTo(NOTICED);
        assertThat(errors.since(before)).as("logged at ERROR").isEmpty();
    }

    /** The status, and for a 503 whether it is a console page with the notice. */
    private static String outcome(HttpResponse<String> answer) {
        if (answer.statusCode() != 503) {
            return Integer.toString(answer.statusCode());
        }
        boolean notice = answer.body().contains(NOTICE) && answer.body().contains(CONSOLE + "/assets/console.css");
        return notice ? NOTICED : "503 without the notice: " + answer.body();
    }
}
