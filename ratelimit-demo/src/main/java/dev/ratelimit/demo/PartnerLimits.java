package dev.ratelimit.demo;

import dev.ratelimit.interceptor.RateLimitRule;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A rule defined in code, for calls no annotation can name: {@code demo.PartnerWebhooks}, 3 webhooks per
 * minute per partner, counted by {@link CallsController} through {@code RateLimitService}.
 */
@Configuration(proxyBeanMethods = false)
public class PartnerLimits {

    @Bean
    RateLimitRule partnerWebhooks() {
        return RateLimitRule.named("PartnerWebhooks").count(3).interval(1, TimeUnit.MINUTES).build();
    }
}
