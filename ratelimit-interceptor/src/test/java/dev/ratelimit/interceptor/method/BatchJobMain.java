package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitExceededException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.util.ClassUtils;

/**
 * A batch job as a team writes one: no web server, {@code @RateLimit} on the bean that calls a partner's API
 * ("at most {@value PartnerApi#LIMIT} calls, over all our workers"), {@value #THREADS} threads each making
 * {@value #CALLS} calls, then {@code main} returns without closing anything: the JVM ends when nothing keeps
 * it alive. {@code BatchJobMain <redis port>}; prints {@value #RESULT} with the calls that ran and were refused,
 * and whether the servlet API was on its classpath.
 */
public final class BatchJobMain {

    public static final String RESULT = "BATCH-RESULT ";
    static final int THREADS = 16;
    static final int CALLS = 4;

    private BatchJobMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ConfigurableApplicationContext app = new SpringApplicationBuilder(Job.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "spring.datasource.generate-unique-name=true",
                        "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + args[0])
                .run();
        PartnerApi api = app.getBean(PartnerApi.class);
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                    for (int call = 0; call < CALLS; call++) {
                        try {
                            api.fetch();
                        } catch (RateLimitExceededException e) {
                            refused.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            worker.start();
            workers.add(worker);
        }
        go.countDown();
        for (Thread worker : workers) {
            worker.join(TimeUnit.MINUTES.toMillis(2));
        }
        boolean servletApi = ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", null);
        System.out.println(RESULT + api.ran() + " " + refused.get() + " servlet-api=" + servletApi);
        System.out.flush();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(PartnerApi.class)
    static class Job {
    }

    /**
     * A window of an hour, opened by the first call: the calls of both processes fall in it however late a
     * busy machine starts the second JVM.
     */
    static class PartnerApi {

        static final int LIMIT = 10;

        private final AtomicInteger ran = new AtomicInteger();

        @RateLimit(count = LIMIT, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.METHOD)
        public void fetch() {
            ran.incrementAndGet();
        }

        /** Read through the method: the bean is a proxy, whose own fields are not the target's. */
        public int ran() {
            return ran.get();
        }
    }
}
