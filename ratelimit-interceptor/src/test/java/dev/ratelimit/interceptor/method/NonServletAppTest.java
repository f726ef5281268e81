package dev.ratelimit.interceptor.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.web.LimitResponseWriter;
import dev.ratelimit.interceptor.web.RateLimitInterceptor;
import dev.ratelimit.interceptor.web.RejectionHandler;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An app without a web server (a batch job, a message consumer: {@code spring.main.web-application-type=none})
 * with {@code @RateLimit} on bean methods: the limiter is there, on the shipped defaults (counters in Redis),
 * without its web layer; a controller's limit, which only the web layer applies, is said once not to apply.
 */
@ExtendWith(OutputCaptureExtension.class)
class NonServletAppTest {

    private static final String WARNING = "Rate limiter: no web layer";
    /**
     * The jars of a web layer, which a job on {@code spring-boot-starter} and our starter does not have: the servlet
     * API, Tomcat, Spring Web and Spring MVC with Spring Boot's support of them.
     */
    private static final Pattern WEB_LAYER = Pattern.compile(
            "jakarta\\.servlet-api|tomcat-embed|/spring-web(mvc)?-\\d|/spring-boot-(webmvc|web-server|servlet|http-converter|tomcat)-\\d");
    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @Test
    void aBeanMethodsLimitHolds() {
        try (ConfigurableApplicationContext app = start(BatchJob.class)) {
            Mailer mailer = app.getBean(Mailer.class);
            for (int i = 0; i < Mailer.LIMIT; i++) {
                mailer.send("ann");
            }
            assertThatThrownBy(() -> mailer.send("ann")).isInstanceOf(RateLimitExceededException.class);
            assertThat(mailer.sent()).isEqualTo(Mailer.LIMIT);
        }
    }

    @Test
    void theLimiterComesWithoutItsWebLayer() {
        try (ConfigurableApplicationContext app = start(BatchJob.class)) {
            assertThat(app.getBeanNamesForType(RequestLimiter.class)).hasSize(1);
            assertThat(app.getBeanNamesForType(CallLimiter.class)).hasSize(1);
            assertThat(app.getBeanNamesForType(EndpointCatalog.class)).hasSize(1);
            assertThat(app.getBeanNamesForType(RateLimitService.class)).as("the servlet API is on this classpath")
                    .hasSize(1);
            assertThat(app.getBeanNamesForType(RateLimitInterceptor.class)).isEmpty();
            assertThat(app.getBeanNamesForType(LimitResponseWriter.class)).isEmpty();
            assertThat(app.getBeanNamesForType(RejectionHandler.class)).isEmpty();
            assertThat(app.containsBean("rateLimitWebMvcConfigurer")).isFalse();
        }
    }

    @Test
    void aControllersLimitIsSaidOnceNotToApply(CapturedOutput output) {
        try (ConfigurableApplicationContext app = start(JobWithAController.class)) {
            assertThat(app.getBean(Mailer.class)).isNotNull();
        }

        assertThat(output.getOut().lines().filter(line -> line.contains(WARNING)).toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("WARN", "not a servlet web application",
                        "the 1 @RateLimit declaration(s) of this app's controllers do not apply", "Orders.list")
                        .doesNotContain("Mailer"));
    }

    @Test
    void anAppWhoseControllersDeclareNoLimitHearsNothing(CapturedOutput output) {
        start(BatchJob.class).close();

        assertThat(output.getOut()).doesNotContain("Rate limiter");
    }

    /**
     * Two job processes on one Redis, the servlet API and Tomcat left off their classpath (a job on
     * {@code spring-boot-starter} and our starter alone), {@value BatchJobMain#THREADS} threads each: exactly the
     * limit runs over both, and each JVM ends by itself once its {@code main} has returned.
     */
    @Test
    void twoJobProcessesShareTheLimitExactlyAndEndByThemselves() throws Exception {
        String classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !WEB_LAYER.matcher(entry).find())
                .collect(Collectors.joining(File.pathSeparator));
        List<Process> jobs = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Path output = Files.createTempFile(Path.of("target"), "batch-job-", ".log");
            outputs.add(output);
            jobs.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    classpath, BatchJobMain.class.getName(), Integer.toString(redis.port()))
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start());
        }
        int ran = 0;
        int refused = 0;
        for (int i = 0; i < 2; i++) {
            Process job = jobs.get(i);
            boolean ended = job.waitFor(3, TimeUnit.MINUTES);
            if (!ended) {
                job.destroyForcibly();
            }
            assertThat(ended).as("the job's JVM ended by itself, see %s", outputs.get(i)).isTrue();
            assertThat(job.exitValue()).as("exit code, see %s", outputs.get(i)).isZero();
            String result = result(outputs.get(i));
            assertThat(result).as("see %s", outputs.get(i)).endsWith("servlet-api=false");
            String[] counts = result.split(" ");
            ran += Integer.parseInt(counts[0]);
            refused += Integer.parseInt(counts[1]);
        }

        assertThat(ran).isEqualTo(BatchJobMain.PartnerApi.LIMIT);
        assertThat(refused).isEqualTo(2 * BatchJobMain.THREADS * BatchJobMain.CALLS - BatchJobMain.PartnerApi.LIMIT);
    }

    private static String result(Path output) throws IOException {
        return Files.readAllLines(output).stream().filter(line -> line.startsWith(BatchJobMain.RESULT))
                .map(line -> line.substring(BatchJobMain.RESULT.length())).findFirst()
                .orElseThrow(() -> new AssertionError("no result, see " + output));
    }

    private static ConfigurableApplicationContext start(Class<?> job) {
        return new SpringApplicationBuilder(job).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "spring.datasource.generate-unique-name=true",
                        "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port())
                .run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Mailer.class)
    static class BatchJob {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Mailer.class, Orders.class})
    static class JobWithAController {
    }

    static class Mailer {

        static final int LIMIT = 2;

        private final AtomicInteger sent = new AtomicInteger();

        /** A window opened by the first call, long enough for any test run. */
        @RateLimit(count = LIMIT, interval = 1, unit = TimeUnit.DAYS, dimension = Dimension.METHOD)
        public void send(String to) {
            sent.incrementAndGet();
        }

        /** Read through the method: the bean is a proxy, whose own fields are not the target's. */
        public int sent() {
            return sent.get();
        }
    }

    @RestController
    static class Orders {

        @GetMapping("/orders")
        @RateLimit(count = 5, interval = 1, unit = TimeUnit.MINUTES)
        public String list() {
            return "[]";
        }
    }
}
