package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.util.AntPathMatcher;

/**
 * An immutable view of the config hash, as the limiter reads it. Every request reads one snapshot from a
 * {@code volatile} field, so the hot path makes no config call and takes no lock. What a rule is in force
 * is {@link RulesInForce}'s to say; the snapshot holds what the hash says about each rule.
 *
 * @param version      the hash's {@code config.version}: 0 for a hash written before versions (or none)
 * @param fields       the hash as it was read, for putting it back should it vanish
 * @param globalMode   {@code global.mode}: in shadow mode no rule rejects anything
 * @param overrides    {@code <module>.<rule>} to its switch and window/count/penalty overrides
 * @param shadowRules  {@code <module>.<rule>} of the rules in shadow mode
 * @param dynamicRules {@code <module>.<rule>} to the limit of a {@code dyn.*} field
 * @param uriRules     {@code dynuri.*} rules
 * @param whitelist    {@code whitelist.ips} and {@code whitelist.users}
 * @param ignored      fields the limiter does not apply, with the reason, by field
 * @param plans        {@code <rule>.plan.<plan>}: by rule, the count and window of each plan
 * @param exceptions   {@code <rule>.exception.<identity>}: by rule, the exception of each client, as written
 * @param hashedExceptions the same exceptions of identities a counter names by a hash ({@code ~...}: a user code
 *                     or key that is long or odd), by rule and by that hash, so that the counted identity finds them
 * @param denyList     {@code deny.ip.*}, {@code deny.user.*}, {@code deny.key.*}: the clients refused outright,
 *                     those in force when the hash was read
 */
public record RuleSnapshot(long version, Instant loadedAt, Map<String, String> fields, boolean globalCheck,
                           RuleMode globalMode, boolean logCheck, Map<String, RuleOverride> overrides,
                           Set<String> shadowRules, Map<String, LimitSpec> dynamicRules, List<UriRule> uriRules,
                           Whitelist whitelist, Map<String, String> ignored, Map<String, Map<String, LimitSpec>> plans,
                           Map<String, Map<String, IdentityException>> exceptions,
                           Map<String, Map<String, IdentityException>> hashedExceptions, DenyList denyList) {

    /** One matcher for every {@code dynuri.*} lookup; AntPathMatcher is thread-safe and caches patterns. */
    static final AntPathMatcher PATH_MATCHER = new AntPathMatcher();

    public RuleSnapshot {
        fields = Map.copyOf(fields);
        overrides = Map.copyOf(overrides);
        shadowRules = Set.copyOf(shadowRules);
        dynamicRules = Map.copyOf(dynamicRules);
        uriRules = List.copyOf(uriRules);
        ignored = Map.copyOf(ignored);
        plans = Map.copyOf(plans);
        exceptions = Map.copyOf(exceptions);
        hashedExceptions = Map.copyOf(hashedExceptions);
    }

    /** What applies when the hash was never read: everything on, nothing dynamic. */
    public static RuleSnapshot defaults() {
        return new RuleSnapshot(0, Instant.EPOCH, Map.of(), true, RuleMode.ENFORCE, true, Map.of(), Set.of(), Map.of(),
                List.of(), Whitelist.EMPTY, Map.of(), Map.of(), Map.of(), Map.of(), DenyList.EMPTY);
    }

    /** Whether this is a hash that was read: an empty one, or none, holds nothing to keep. */
    public boolean holdsConfig() {
        return !fields.isEmpty();
    }

    RuleOverride override(RuleId rule) {
        return overrides.isEmpty() ? RuleOverride.NONE : overrides.getOrDefault(rule.toString(), RuleOverride.NONE);
    }

    /** Whether any rule only watches. */
    boolean anyShadow() {
        return globalMode == RuleMode.SHADOW || !shadowRules.isEmpty();
    }

    /** Whether a rule only watches: the whole limiter or the rule itself is in shadow mode. */
    boolean shadow(RuleId rule) {
        return globalMode == RuleMode.SHADOW || (!shadowRules.isEmpty() && shadowRules.contains(rule.toString()));
    }

    /** The count and window of a plan of a rule, or {@code null} when the hash has none for it. */
    @Nullable LimitSpec plan(RuleId rule, String plan) {
        Map<String, LimitSpec> ofRule = plans.isEmpty() ? null : plans.get(rule.toString());
        return ofRule == null ? null : ofRule.get(plan);
    }

    /**
     * The exception of a client of a rule still in force at {@code now}, or {@code null}; {@code identity} as
     * the counter names it, so an exception written for a long user code is found by its hash.
     */
    @Nullable IdentityException exception(RuleId rule, String identity, Instant now) {
        Map<String, IdentityException> ofRule = exceptions.isEmpty() ? null : exceptions.get(rule.toString());
        IdentityException exception = ofRule == null ? null : ofRule.get(identity);
        if (exception == null && !hashedExceptions.isEmpty() && identity.startsWith("~")) {
            Map<String, IdentityException> hashed = hashedExceptions.get(rule.toString());
            exception = hashed == null ? null : hashed.get(identity);
        }
        return exception != null && exception.inForceAt(now) ? exception : null;
    }

    /** The same, the clock read only when the hash holds exceptions: the request path's common case has none. */
    @Nullable IdentityException exception(RuleId rule, String identity, Clock clock) {
        return exceptions.isEmpty() ? null : exception(rule, identity, clock.instant());
    }

    /** The most specific {@code dynuri.*} rule matching a path (Spring MVC's own pattern ordering), or {@code null}. */
    @Nullable UriRule uriRule(String path) {
        if (uriRules.isEmpty()) {
            return null;
        }
        Comparator<String> specificity = PATH_MATCHER.getPatternComparator(path);
        UriRule best = null;
        for (UriRule rule : uriRules) {
            if (PATH_MATCHER.match(rule.pattern(), path)
                    && (best == null || specificity.compare(rule.pattern(), best.pattern()) < 0)) {
                best = rule;
            }
        }
        return best;
    }
}
