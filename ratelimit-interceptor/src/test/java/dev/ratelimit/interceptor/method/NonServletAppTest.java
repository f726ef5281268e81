package dev.ratelimit.interceptor.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.RateLimit;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * An app without a web server (a batch job: {@code spring.main.web-application-type=none}) with
 * {@code @RateLimit} on a bean method. The limiter is not installed there: every call runs, and the app says
 * so once at start-up, naming the method. The starter adds nothing else to such an app.
 */
@ExtendWith(OutputCaptureExtension.class)
class NonServletAppTest {

    private static final String WARNING = "Rate limiter: not installed";

    @Test
    void everyCallRunsAndTheStartSaysOnceThatTheLimitsDoNotApply(CapturedOutput output) {
        try (ConfigurableApplicationContext app = start(BatchJob.class)) {
            Mailer mailer = app.getBean(Mailer.class);
            for (int i = 0; i < Mailer.LIMIT * 3; i++) {
                mailer.send("ann");
            }
            assertThat(mailer.sent).hasValue(Mailer.LIMIT * 3);
        }

        assertThat(output.getOut().lines().filter(line -> line.contains(WARNING)).toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("WARN", "not a servlet web application",
                        "the 1 @RateLimit declaration(s) of this app do not apply", "Mailer.send"));
    }

    @Test
    void anAppThatDeclaresNoLimitHearsNothing(CapturedOutput output) {
        start(PlainJob.class).close();

        assertThat(output.getOut()).doesNotContain("Rate limiter");
    }

    /** Every bean the app has without the starter's auto-configurations, it has with them, and only the warning more. */
    @Test
    void theStarterAddsNothingButTheWarning() {
        Set<String> with;
        try (ConfigurableApplicationContext app = start(BatchJob.class)) {
            with = new HashSet<>(Arrays.asList(app.getBeanDefinitionNames()));
        }
        List<String> ours = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates()
                .stream().filter(name -> name.startsWith("dev.ratelimit.")).toList();
        Set<String> without;
        try (ConfigurableApplicationContext app = start(BatchJob.class,
                "spring.autoconfigure.exclude=" + String.join(",", ours))) {
            without = new HashSet<>(Arrays.asList(app.getBeanDefinitionNames()));
        }

        assertThat(without).isSubsetOf(with);
        with.removeAll(without);
        assertThat(with).containsExactlyInAnyOrder("rateLimitUnappliedLimits",
                "dev.ratelimit.interceptor.autoconfigure.NonServletAppAutoConfiguration");
    }

    private static ConfigurableApplicationContext start(Class<?> job, String... properties) {
        return new SpringApplicationBuilder(job).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "spring.datasource.generate-unique-name=true")
                .properties(properties).run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Mailer.class)
    static class BatchJob {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PlainJob {
    }

    static class Mailer {

        static final int LIMIT = 2;

        final AtomicInteger sent = new AtomicInteger();

        @RateLimit(count = LIMIT, interval = 1, unit = TimeUnit.DAYS)
        public void send(String to) {
            sent.incrementAndGet();
        }
    }
}
