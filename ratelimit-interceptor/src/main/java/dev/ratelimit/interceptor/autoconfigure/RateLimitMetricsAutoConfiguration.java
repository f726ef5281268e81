package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.log.DroppedInterceptions;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.MicrometerRateLimitMetrics;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The limiter's Micrometer meters, when the app has a {@link MeterRegistry}. */
@AutoConfiguration(after = RateLimitAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, RequestLimiter.class})
public class RateLimitMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MicrometerRateLimitMetrics rateLimitMicrometerMetrics(MeterRegistry registry, ObjectProvider<CircuitBreaker> circuit,
                                                          ObjectProvider<InterceptionLog> log) {
        return new MicrometerRateLimitMetrics(registry, circuit.getIfAvailable(),
                log.getIfAvailable() instanceof DroppedInterceptions drops ? drops : null);
    }
}
