package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.actuate.RateLimitEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitHealthIndicator;
import dev.ratelimit.interceptor.actuate.RateLimitRulesEndpoint;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.document.RuleDocuments;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.lease.HeldLeases;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.web.RateLimitInterceptor;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator endpoints {@code ratelimit} and {@code ratelimitrules} and the health component
 * {@code rateLimit}, when the app has Spring Boot's actuator.
 */
@AutoConfiguration(after = {RateLimitAutoConfiguration.class, RateLimitStatsAutoConfiguration.class})
@ConditionalOnBean(RateLimitInterceptor.class)
public class RateLimitActuatorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RateLimitEndpoint rateLimitEndpoint(RuleNaming naming, RuleCatalog catalog, RuleSnapshotHolder snapshots,
                                            RateLimitStore store, OutcomeCounts counts, InterceptionLog log,
                                            Whitelist whitelist, ObjectProvider<BlockedClients> blocked,
                                            ObjectProvider<EvictionPolicy> eviction, HeldLeases leases) {
            return new RateLimitEndpoint(naming.module(), catalog, snapshots, store, counts, log, whitelist,
                    blocked.getIfAvailable(), eviction.getIfAvailable(), leases, Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RuleDocuments.class)
        RateLimitRulesEndpoint rateLimitRulesEndpoint(RuleDocuments documents) {
            return new RateLimitRulesEndpoint(documents);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
    @ConditionalOnBean(CircuitBreaker.class)
    @ConditionalOnEnabledHealthIndicator("ratelimit")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "rateLimitHealthIndicator")
        RateLimitHealthIndicator rateLimitHealthIndicator(CircuitBreaker circuit, RateLimitProperties properties,
                                                          ObjectProvider<EvictionPolicy> eviction) {
            return new RateLimitHealthIndicator(circuit, properties.redisFailure().mode(), eviction.getIfAvailable());
        }
    }
}
