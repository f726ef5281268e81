package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * A batch job without a web server (module {@code jobs}) and a web app serving the console, on one Redis: the
 * console lists the job's bean-method rule, from the API index the job reported, and an operator's change of it
 * applies in the job at run time.
 */
class ConsoleNonWebAppTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final RuleId RULE = RuleId.of("jobs", "PartnerApi.fetch");

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext consoleApp;
    private static ConfigurableApplicationContext job;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        consoleApp = FixtureApplication.start(redis.port(), "ratelimit.console.password=s3cret");
        job = new SpringApplicationBuilder(Job.class).web(WebApplicationType.NONE)
                .properties("spring.application.name=jobs", "spring.main.banner-mode=off",
                        "spring.datasource.generate-unique-name=true", "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.port(), "ratelimit.console.enabled=false")
                .run();
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.commands().exists("ratelimit:{apiindex}:jobs") == 1);
    }

    @AfterAll
    static void stop() {
        job.close();
        consoleApp.close();
        redis.close();
    }

    @Test
    void theConsoleListsTheJobsRuleAndItsChangeAppliesInTheJob() {
        ConsoleSession session = new ConsoleSession(FixtureApplication.port(consoleApp));
        assertThat(session.login("admin", "s3cret").statusCode()).isEqualTo(302);
        HttpResponse<String> rules = session.get(CONSOLE + "/rules");
        assertThat(rules.statusCode()).isEqualTo(200);
        assertThat(rules.body()).contains(RULE.toString());

        HttpResponse<String> saved = session.post(CONSOLE + "/rules/rule", "module", RULE.module(), "rule", RULE.rule(),
                "enabled", "true", "count", "1", "interval", "3600");
        assertThat(saved.statusCode()).isEqualTo(302);
        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> job.getBean(RuleCatalog.class).current()
                .limit(RULE).map(LimitDefinition::count).orElse(0L) == 1);

        PartnerApi api = job.getBean(PartnerApi.class);
        api.fetch();
        assertThatThrownBy(api::fetch).isInstanceOf(RateLimitExceededException.class);
        assertThat(api.ran()).isEqualTo(1);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(PartnerApi.class)
    static class Job {
    }

    static class PartnerApi {

        private final AtomicInteger ran = new AtomicInteger();

        /** Declared well above what the test calls: only the operator's limit of 1 can refuse the second call. */
        @RateLimit(count = 100, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.METHOD)
        public void fetch() {
            ran.incrementAndGet();
        }

        /** Read through the method: the bean is a proxy, whose own fields are not the target's. */
        public int ran() {
            return ran.get();
        }
    }
}
