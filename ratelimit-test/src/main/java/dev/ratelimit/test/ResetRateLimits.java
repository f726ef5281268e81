package dev.ratelimit.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a Spring test class ({@code @SpringBootTest} or any test run by Spring's JUnit extension): before
 * each test, every counter, penalty and remembered denial of the test's application context is reset
 * ({@link RateLimitCounters#reset}), so tests do not use up each other's limits, whatever their order.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(ResetRateLimitsExtension.class)
public @interface ResetRateLimits {
}
