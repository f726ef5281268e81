package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.config.LimitSpec;
import dev.ratelimit.interceptor.config.RuleOverride;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.UriRule;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import java.util.ArrayList;
import java.util.List;

/**
 * The limits in force for one request: the endpoint's {@code @RateLimit}s with the snapshot's
 * switches and overrides; else its {@code dyn.<module>.<rule>}; else the most specific matching
 * {@code dynuri.<pattern>}. A dynamic rule counts by the dimension and algorithm its value names
 * (per user with a fixed window unless it says otherwise: see {@code LimitSpec}).
 */
final class LimitResolver {

    private final String module;

    LimitResolver(String module) {
        this.module = module;
    }

    List<LimitDefinition> limits(Endpoint endpoint, LimitedRequest request, RuleSnapshot snapshot) {
        if (!endpoint.limits().isEmpty()) {
            List<LimitDefinition> limits = new ArrayList<>(endpoint.limits().size());
            for (LimitDefinition declared : endpoint.limits()) {
                RuleOverride override = snapshot.override(declared.id());
                if (override.enabled()) {
                    limits.add(override.applyTo(declared));
                }
            }
            return limits;
        }
        LimitSpec dynamic = snapshot.dynamicRule(endpoint.id());
        if (dynamic != null) {
            return enabled(dynamicLimit(endpoint.module(), endpoint.rule(), dynamic), snapshot);
        }
        if (snapshot.uriRules().isEmpty()) {
            return List.of();
        }
        UriRule uriRule = snapshot.uriRule(request.path());
        return uriRule == null ? List.of() : enabled(dynamicLimit(module, uriRule.pattern(), uriRule.limit()), snapshot);
    }

    private static List<LimitDefinition> enabled(LimitDefinition limit, RuleSnapshot snapshot) {
        return snapshot.override(limit.id()).enabled() ? List.of(limit) : List.of();
    }

    private static LimitDefinition dynamicLimit(String module, String rule, LimitSpec spec) {
        CalendarQuota quota = spec.period() == QuotaPeriod.NONE ? CalendarQuota.NONE : new CalendarQuota(spec.period(), null);
        return new LimitDefinition(module, rule, spec.count(), spec.intervalSeconds(), spec.dimension(),
                spec.algorithm(), "", LimitDefinition.DEFAULT_MESSAGE_KEY, "", spec.penalty(), RequestCost.ONE, quota, "");
    }
}
