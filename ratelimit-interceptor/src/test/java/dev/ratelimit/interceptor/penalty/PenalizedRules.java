package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimitRule;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code CODE} kind of {@link PenaltyMatrixContract}: rules defined in code, counted through
 * {@code RateLimitService}, per algorithm a rule defined in code can take, {@code penalty-CODE-<ALGORITHM>}.
 */
@Configuration(proxyBeanMethods = false)
public class PenalizedRules {

    @Bean
    RateLimitRule penaltyCodeFixedWindow() {
        return rule(Algorithm.FIXED_WINDOW);
    }

    @Bean
    RateLimitRule penaltyCodeSlidingWindow() {
        return rule(Algorithm.SLIDING_WINDOW);
    }

    @Bean
    RateLimitRule penaltyCodeSlidingLog() {
        return rule(Algorithm.SLIDING_LOG);
    }

    @Bean
    RateLimitRule penaltyCodeTokenBucket() {
        return rule(Algorithm.TOKEN_BUCKET);
    }

    private static RateLimitRule rule(Algorithm algorithm) {
        return RateLimitRule.named("penalty-CODE-" + algorithm.name()).count(PenalizedController.COUNT)
                .interval(PenalizedController.WINDOW, TimeUnit.SECONDS).algorithm(algorithm)
                .penalty(PenalizedController.BLOCK, 0).build();
    }
}
