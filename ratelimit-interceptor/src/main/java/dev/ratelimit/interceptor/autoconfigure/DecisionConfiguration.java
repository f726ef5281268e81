package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.VerdictObservationConvention;
import dev.ratelimit.interceptor.internal.expression.LimitExpressions;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.internal.lease.LeaseRenewal;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.ExcludedPaths;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.store.RateLimitStore;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Deciding: the catalog of the app's declared limits, the rules in force, the whitelist, the leases of
 * concurrency limits and the limiter every adapter (the interceptor, the bean-method advisor, the service) asks.
 */
class DecisionConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RedisKeys rateLimitRedisKeys(RateLimitProperties properties) {
        return new RedisKeys(properties.redis().keyPrefix());
    }

    @Bean
    @ConditionalOnMissingBean
    RuleNaming rateLimitRuleNaming(RateLimitProperties properties, Environment environment) {
        return RuleNaming.of(properties.module(), environment.getProperty("spring.application.name"));
    }

    @Bean
    @ConditionalOnMissingBean
    LimitExpressions rateLimitExpressions() {
        return LimitExpressions.create();
    }

    @Bean
    @ConditionalOnMissingBean
    EndpointCatalog rateLimitEndpointCatalog(RuleNaming naming, RateLimitStore store, LimitExpressions expressions,
                                             RateLimitProperties properties) {
        return new EndpointCatalog(naming, store.supportedAlgorithms(), expressions.keys()::get,
                expressions.responses()::get, expressions.requests()::get, properties.concurrency().lease());
    }

    @Bean
    @ConditionalOnMissingBean
    InterceptionLog rateLimitInterceptionLog() {
        return InterceptionLog.DISCARD;
    }

    /** The whitelist of the properties; the config hash's is read with the rest of the hash. */
    @Bean
    @ConditionalOnMissingBean
    Whitelist rateLimitWhitelist(RateLimitProperties properties) {
        try {
            return Whitelist.of(properties.whitelist().ips(), properties.whitelist().users());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ratelimit.whitelist.ips: " + e.getMessage(), e);
        }
    }

    /** Outcomes since the start, for the actuator endpoint; Micrometer's meters come on top when present. */
    @Bean
    @ConditionalOnMissingBean
    OutcomeCounts rateLimitOutcomeCounts() {
        return new OutcomeCounts();
    }

    /** This app's rules in force: what the decision path, the allowance service and the actuator ask. */
    @Bean
    @ConditionalOnMissingBean
    RuleCatalog rateLimitRuleCatalog(EndpointCatalog endpoints, RuleSnapshotHolder snapshots) {
        return new RuleCatalog(endpoints, snapshots);
    }

    /** The leases of this instance's requests running under concurrency limits. */
    @Bean
    @ConditionalOnMissingBean
    HeldLeases rateLimitHeldLeases(RateLimitProperties properties) {
        return new HeldLeases(properties.concurrency().maxHold());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitStore.class)
    LeaseRenewal rateLimitLeaseRenewal(HeldLeases leases, RateLimitStore store) {
        return new LeaseRenewal(leases, store);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RateLimitStore.class)
    RequestLimiter rateLimitRequestLimiter(RuleCatalog catalog, RedisKeys keys, RateLimitStore store,
                                           InterceptionLog interceptionLog, ObjectProvider<RateLimitMetrics> metrics,
                                           Whitelist whitelist, RateLimitProperties properties, HeldLeases leases,
                                           ObjectProvider<ObservationRegistry> observations,
                                           ObjectProvider<VerdictObservationConvention> convention) {
        return new RequestLimiter(catalog, keys, store, interceptionLog,
                RateLimitMetrics.all(metrics.orderedStream().toList()), whitelist, Clock.systemUTC(),
                properties.quota().zone(), leases, observations.getIfAvailable(() -> ObservationRegistry.NOOP),
                convention.getIfAvailable(), excludedFromBatches(properties.hotKeys().excludedRules(), catalog.naming().module()));
    }

    /** The rules named in {@code ratelimit.hot-keys.excluded-rules}: each must be a rule of this module. */
    private static Set<RuleId> excludedFromBatches(List<String> excludedRules, String module) {
        Set<RuleId> rules = new HashSet<>();
        for (String text : excludedRules) {
            RuleId rule = RuleId.parse(text, List.of(module));
            if (rule == null) {
                throw new IllegalArgumentException("ratelimit.hot-keys.excluded-rules: '" + text
                        + "' names no rule of this module (" + module + "): write <module>.<rule>");
            }
            rules.add(rule);
        }
        return rules;
    }

    /** The paths the limiter never sees: its interceptor skips them, and the API index leaves them out. */
    @Bean
    @ConditionalOnMissingBean
    ExcludedPaths rateLimitExcludedPaths(RateLimitProperties properties) {
        return new ExcludedPaths(properties.excludedPaths());
    }
}
