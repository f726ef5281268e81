package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link RateLimitService}, for limits taken from code, in any app whose classpath has the servlet API (one of
 * its methods reads a request). A configuration of its own because it needs the limiter, which
 * {@link RateLimitAutoConfiguration} defines after the servlet-API beans it nests.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnClass(name = "jakarta.servlet.http.HttpServletRequest")
@ConditionalOnBean({RequestLimiter.class, DimensionKeys.class})
public class RateLimitServiceAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitService rateLimitService(RuleCatalog catalog, RequestLimiter limiter, DimensionKeys identities) {
        return new RateLimitService(catalog, limiter, identities);
    }
}
