package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.actuate.EndpointShowValues;
import dev.ratelimit.interceptor.actuate.RateLimitAdviceEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitAdviceEndpointWebExtension;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.interceptor.actuate.RateLimitEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitEndpointWebExtension;
import dev.ratelimit.interceptor.actuate.RateLimitHealthIndicator;
import dev.ratelimit.interceptor.actuate.RateLimitRulesEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitRulesEndpointWebExtension;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.document.RuleDocuments;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator endpoints {@code ratelimit} and {@code ratelimitrules}, and the health component
 * {@code rateLimit} on request, when the app has Spring Boot's actuator.
 */
@AutoConfiguration(after = {RateLimitAutoConfiguration.class, RateLimitStatsAutoConfiguration.class})
@ConditionalOnBean(RequestLimiter.class)
public class RateLimitActuatorAutoConfiguration {

    /**
     * The endpoints, each with Spring Boot's convention for sensitive values: the clients they name show as
     * {@code management.endpoint.<id>.show-values} and {@code roles} say, as for {@code env}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    static class EndpointConfiguration {

        static final String SHOW_VALUES = "rateLimitEndpointShowValues";
        static final String RULES_SHOW_VALUES = "rateLimitRulesEndpointShowValues";
        static final String ADVICE_SHOW_VALUES = "rateLimitAdviceEndpointShowValues";

        @Bean(SHOW_VALUES)
        @ConfigurationProperties("management.endpoint.ratelimit")
        EndpointShowValues rateLimitEndpointShowValues() {
            return new EndpointShowValues();
        }

        @Bean(RULES_SHOW_VALUES)
        @ConfigurationProperties("management.endpoint.ratelimitrules")
        EndpointShowValues rateLimitRulesEndpointShowValues() {
            return new EndpointShowValues();
        }

        @Bean(ADVICE_SHOW_VALUES)
        @ConfigurationProperties("management.endpoint.ratelimitadvice")
        EndpointShowValues rateLimitAdviceEndpointShowValues() {
            return new EndpointShowValues();
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(LimitAdvisor.class)
        RateLimitAdviceEndpoint rateLimitAdviceEndpoint(LimitAdvisor advisor, RuleCatalog catalog,
                                                        @Qualifier(ADVICE_SHOW_VALUES) EndpointShowValues show) {
            return new RateLimitAdviceEndpoint(advisor, catalog, show, Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RateLimitAdviceEndpoint.class)
        RateLimitAdviceEndpointWebExtension rateLimitAdviceEndpointWebExtension(RateLimitAdviceEndpoint endpoint) {
            return new RateLimitAdviceEndpointWebExtension(endpoint);
        }

        @Bean
        @ConditionalOnMissingBean
        RateLimitEndpoint rateLimitEndpoint(RuleNaming naming, RuleCatalog catalog, RuleSnapshotHolder snapshots,
                                            RateLimitStore store, OutcomeCounts counts, InterceptionLog log,
                                            Whitelist whitelist, ObjectProvider<BlockedClients> blocked,
                                            ObjectProvider<EvictionPolicy> eviction, HeldLeases leases,
                                            @Qualifier(SHOW_VALUES) EndpointShowValues show,
                                            ObjectProvider<SanitizingFunction> sanitizing) {
            return new RateLimitEndpoint(naming.module(), catalog, snapshots, store, counts, log, whitelist,
                    blocked.getIfAvailable(), eviction.getIfAvailable(), leases, Clock.systemUTC(), show,
                    sanitizing.orderedStream().toList());
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RateLimitEndpoint.class)
        RateLimitEndpointWebExtension rateLimitEndpointWebExtension(RateLimitEndpoint endpoint) {
            return new RateLimitEndpointWebExtension(endpoint);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RuleDocuments.class)
        RateLimitRulesEndpoint rateLimitRulesEndpoint(RuleDocuments documents,
                                                      @Qualifier(RULES_SHOW_VALUES) EndpointShowValues show) {
            return new RateLimitRulesEndpoint(documents, show);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RateLimitRulesEndpoint.class)
        RateLimitRulesEndpointWebExtension rateLimitRulesEndpointWebExtension(RateLimitRulesEndpoint endpoint) {
            return new RateLimitRulesEndpointWebExtension(endpoint);
        }
    }

    /**
     * The health component, when the app asks for it ({@code management.health.ratelimit.enabled=true}): it is
     * always UP, so it would change nothing of the app's health but what the app's health shows, which stays
     * the app's.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnBean(CircuitBreaker.class)
    @ConditionalOnProperty(prefix = "management.health.ratelimit", name = "enabled", havingValue = "true")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "rateLimitHealthIndicator")
        RateLimitHealthIndicator rateLimitHealthIndicator(CircuitBreaker circuit, RateLimitProperties properties,
                                                          ObjectProvider<EvictionPolicy> eviction) {
            return new RateLimitHealthIndicator(circuit, properties.redisFailure().mode(), eviction.getIfAvailable());
        }
    }
}
