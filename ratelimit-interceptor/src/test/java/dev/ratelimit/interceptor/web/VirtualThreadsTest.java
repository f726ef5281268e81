package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Every test of {@link TwoInstanceConcurrencyTest} (every algorithm and every kind of limit exact over
 * two instances with 64 concurrent clients) in apps that serve requests on virtual threads
 * ({@code spring.threads.virtual.enabled}, Java 21 and later). On Java 17 there are none: skipped.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsTest extends TwoInstanceConcurrencyTest {

    @BeforeAll
    static void start() {
        startInstances("spring.threads.virtual.enabled=true");
    }

    @Test
    void requestsAreServedByVirtualThreads() {
        instances.forEach(instance -> assertThat(instance.get("/thread").body()).startsWith("VirtualThread"));
    }
}
