package dev.ratelimit.interceptor.widescan;

import dev.ratelimit.interceptor.autoconfigure.RateLimitAutoConfiguration;
import dev.ratelimit.interceptor.fixture.LimitedController;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * An app whose own component scan reaches the limiter's auto-configuration package: nothing may be
 * registered twice. Kept out of the fixture package so that other fixture apps do not scan it.
 */
@SpringBootApplication(scanBasePackageClasses = RateLimitAutoConfiguration.class)
@Import(LimitedController.class)
public class WideScanApplication {
}
