package dev.ratelimit.interceptor;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.StoreResult;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * Asks without spending: what a client has left of an annotated rule and when it comes back, read from
 * the counter without counting anything. The rule as it is in force (the config hash's count and window
 * applied); empty when the rule is unknown, switched off, or the store cannot answer now.
 */
public class RateLimitService {

    private final RuleCatalog catalog;
    private final RequestLimiter limiter;
    private final DimensionKeys identities;

    public RateLimitService(RuleCatalog catalog, RequestLimiter limiter, DimensionKeys identities) {
        this.catalog = catalog;
        this.limiter = limiter;
        this.identities = identities;
    }

    /**
     * The allowance of the client a request comes from, as the interceptor would count it for the rule
     * (its user, its address, ...).
     */
    public Optional<Allowance> peek(RuleId rule, HttpServletRequest request) {
        return catalog.current().limit(rule).flatMap(limit -> {
            String identity = identities.identity(request, limit);
            return identity == null ? Optional.empty() : read(limit, identity);
        });
    }

    /**
     * The allowance of one identity: what the counter key names, e.g. a user code for a {@code USER}
     * limit or an address for an {@code IP} one.
     */
    public Optional<Allowance> peek(RuleId rule, String identity) {
        return catalog.current().limit(rule).flatMap(limit -> read(limit, identity));
    }

    /** The rule {@code <module>.<rule>} names, among this app's modules; {@code null} when it names none. */
    public RuleId ruleId(String text) {
        return RuleId.parse(text, catalog.current().modules());
    }

    private Optional<Allowance> read(LimitDefinition limit, String identity) {
        if (!(limiter.peek(limit, identity) instanceof StoreResult.Decided decided)) {
            return Optional.empty();
        }
        Decision decision = decided.decisions().get(0);
        return Optional.of(new Allowance(limit.id(), limit.count(), decision.remaining(),
                Duration.ofMillis(decision.retryAfterMillis()), Duration.ofMillis(decision.resetMillis())));
    }
}
