package dev.ratelimit.interceptor;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.method.CallLimiter;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.web.ServletCurrentClient;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Asks without spending: what a client has left of an annotated rule and when it comes back, read from
 * the counter without counting anything. The rule as it is in force (the config hash's count and window
 * applied); empty when the rule is unknown, switched off, or the store cannot answer now.
 *
 * <p>And counts, for code that cannot carry {@code @RateLimit}: {@link #tryAcquire} and {@link #acquire}
 * decide a call against a rule (one an annotation declares, or a {@link RateLimitRule} bean defines) as
 * the request path decides a request: the same counters, the rule as it is in force, meters, statistics
 * and interception log (a {@code CALL}).
 */
public class RateLimitService {

    private final RuleCatalog catalog;
    private final RequestLimiter limiter;
    private final DimensionKeys identities;
    private final CallLimiter calls;

    public RateLimitService(RuleCatalog catalog, RequestLimiter limiter, DimensionKeys identities) {
        this.catalog = catalog;
        this.limiter = limiter;
        this.identities = identities;
        this.calls = new CallLimiter(catalog, limiter, new ServletCurrentClient(identities));
    }

    /**
     * Counts one call against {@code rule} under {@code identity} (what the counter key names: a user code
     * for a {@code USER} rule, a partner for a {@code CUSTOM} one; ignored by a {@code METHOD} or
     * {@code GLOBAL} rule), without waiting. A rule switched off, or the master switch, lets every call go on.
     *
     * @return whether the call may go on; {@code false} when the rule refused it
     * @throws IllegalArgumentException when no annotation declares the rule and no {@link RateLimitRule} defines it
     */
    public boolean tryAcquire(RuleId rule, String identity) {
        return calls.tryAcquire(rule, identity);
    }

    /** {@link #tryAcquire(RuleId, String)} of a rule defined in code. */
    public boolean tryAcquire(RateLimitRule rule, String identity) {
        return calls.tryAcquire(id(rule), identity);
    }

    /**
     * Counts one call against {@code rule} under {@code identity} (as {@link #tryAcquire}), waiting up to
     * {@code maxWait} for its turn when refused: each attempt counts like a call, so waiting callers are
     * admitted as the window allows, never more; a call told to wait longer than what is left throws at once.
     *
     * @throws RateLimitExceededException when the rule refuses the call, with the wait it named
     * @throws IllegalArgumentException   when no annotation declares the rule and no {@link RateLimitRule}
     *                                    defines it, or when the call weighs more than the rule's whole count
     */
    public void acquire(RuleId rule, String identity, Duration maxWait) {
        calls.acquire(rule, identity, maxWait);
    }

    /** {@link #acquire(RuleId, String, Duration)} of a rule defined in code. */
    public void acquire(RateLimitRule rule, String identity, Duration maxWait) {
        calls.acquire(id(rule), identity, maxWait);
    }

    /** The id of a rule defined in code in this app: {@code <module>.<name>}, of the app's module unless it names one. */
    public RuleId id(RateLimitRule rule) {
        return RuleId.of(catalog.naming().module(rule.annotation()), rule.annotation().rule());
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
     * limit or an address for an {@code IP} one, as {@link #tryAcquire} counts it.
     */
    public Optional<Allowance> peek(RuleId rule, String identity) {
        return catalog.current().limit(rule).flatMap(limit -> {
            String named = CounterIdentity.named(limit, identity);
            return named == null ? Optional.empty() : read(limit, named);
        });
    }

    /** The rule {@code <module>.<rule>} names, among this app's modules; {@code null} when it names none. */
    public @Nullable RuleId ruleId(String text) {
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
