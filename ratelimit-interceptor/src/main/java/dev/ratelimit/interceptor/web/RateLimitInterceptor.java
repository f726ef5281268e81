package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.resilience.FailurePolicy;
import dev.ratelimit.interceptor.store.resilience.StoreUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * The request path. Registered on {@code /**} ahead of every other interceptor: finds the limits in
 * force for the handler (from the immutable rule snapshot, without calling Redis), lets whitelisted
 * clients through, counts the request against all limits in one store call, and rejects it if any
 * enforced limit denies; a limit in shadow mode only logs and meters its denial. A store failure never
 * fails the request: the store's failure policy decides, and any other error lets it pass.
 */
public class RateLimitInterceptor implements HandlerInterceptor {

    private final EndpointCatalog catalog;
    private final RuleSnapshotHolder snapshots;
    private final LimitResolver limits;
    private final DimensionKeys identities;
    private final RedisKeys keys;
    private final RateLimitStore store;
    private final RejectionHandler rejectionHandler;
    private final RejectionMessages messages;
    private final InterceptionLog interceptionLog;
    private final RateLimitMetrics metrics;
    private final Whitelist whitelist;
    private final RateLimitHeaders headers;
    private final boolean headersOnAllowed;
    private final Clock clock;
    private final FailureWarnings failures = new FailureWarnings();

    /**
     * @param whitelist        clients never limited, besides those of the config hash
     * @param headersOnAllowed whether admitted responses carry the rate limit fields
     * @param legacyHeaders    whether the fields are also sent as {@code X-RateLimit-Limit/Remaining/Reset}
     */
    public RateLimitInterceptor(EndpointCatalog catalog, RuleSnapshotHolder snapshots, DimensionKeys identities,
                                RedisKeys keys, RateLimitStore store, RejectionHandler rejectionHandler,
                                RejectionMessages messages, InterceptionLog interceptionLog, RateLimitMetrics metrics,
                                Whitelist whitelist, boolean headersOnAllowed, boolean legacyHeaders, Clock clock) {
        this.catalog = catalog;
        this.snapshots = snapshots;
        this.limits = new LimitResolver(catalog.naming().module());
        this.identities = identities;
        this.keys = keys;
        this.store = store;
        this.rejectionHandler = rejectionHandler;
        this.messages = messages;
        this.interceptionLog = interceptionLog;
        this.metrics = metrics;
        this.whitelist = whitelist;
        this.headers = new RateLimitHeaders(legacyHeaders);
        this.headersOnAllowed = headersOnAllowed;
        this.clock = clock;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        if (!(handler instanceof HandlerMethod handlerMethod)) {
            return true;
        }
        RuleSnapshot snapshot = snapshots.current();
        if (!snapshot.globalCheck()) {
            return true;
        }
        Endpoint endpoint = catalog.endpoint(handlerMethod);
        if (endpoint == null) {
            return true;
        }
        List<LimitDefinition> inForce = limits.limits(endpoint, request, snapshot);
        if (inForce.isEmpty()) {
            return true;
        }
        // After the rule lookup, so that unlimited endpoints never pay for resolving who the client is.
        if (whitelisted(request, snapshot.whitelist())) {
            inForce.forEach(limit -> metrics.outcome(limit, Outcome.SKIPPED));
            return true;
        }
        List<LimitDefinition> counted = new ArrayList<>(inForce.size());
        List<CounterRequest> counters = new ArrayList<>(inForce.size());
        for (LimitDefinition limit : inForce) {
            String identity = identities.identity(request, limit);
            if (identity == null) {
                metrics.outcome(limit, Outcome.SKIPPED);
            } else {
                counted.add(limit);
                counters.add(new CounterRequest(
                        keys.counter(limit.module(), limit.rule(), limit.dimension(), limit.algorithm(), identity),
                        limit.algorithm(), limit.count(), limit.windowSeconds() * 1000));
            }
        }
        if (counters.isEmpty()) {
            return true;
        }
        List<Decision> decisions;
        long start = System.nanoTime();
        try {
            decisions = store.acquire(counters);
        } catch (StoreUnavailableException e) {
            counted.forEach(limit -> metrics.outcome(limit, Outcome.ERROR));
            if (e.policy() == FailurePolicy.CLOSED) {
                refuseUnavailable(request, response, e);
                return false;
            }
            return true;
        } catch (RuntimeException e) {
            failures.warn(e);
            counted.forEach(limit -> metrics.outcome(limit, Outcome.ERROR));
            return true;
        } finally {
            metrics.decided(System.nanoTime() - start);
        }
        return enforce(request, response, snapshot, counted, decisions);
    }

    /** Meters every decision, logs shadow denials, and rejects when an enforced limit denies. */
    private boolean enforce(HttpServletRequest request, HttpServletResponse response, RuleSnapshot snapshot,
                            List<LimitDefinition> counted, List<Decision> decisions) throws IOException {
        for (int i = 0; i < counted.size(); i++) {
            LimitDefinition limit = counted.get(i);
            if (decisions.get(i).allowed()) {
                metrics.outcome(limit, Outcome.ALLOWED);
            } else if (snapshot.shadow(limit.id())) {
                metrics.outcome(limit, Outcome.SHADOW_BLOCKED);
                log(request, snapshot, limit, true);
            } else {
                metrics.outcome(limit, Outcome.BLOCKED);
            }
        }
        if (!snapshot.anyShadow()) {
            return respond(request, response, snapshot, counted, decisions);
        }
        // A limit that only watches stays invisible to clients: no rate limit fields, no rejection.
        List<LimitDefinition> enforcedLimits = new ArrayList<>(counted.size());
        List<Decision> enforcedDecisions = new ArrayList<>(counted.size());
        for (int i = 0; i < counted.size(); i++) {
            if (!snapshot.shadow(counted.get(i).id())) {
                enforcedLimits.add(counted.get(i));
                enforcedDecisions.add(decisions.get(i));
            }
        }
        return enforcedLimits.isEmpty() || respond(request, response, snapshot, enforcedLimits, enforcedDecisions);
    }

    /** Sets the rate limit fields of enforced limits, and rejects the request when one of them denies. */
    private boolean respond(HttpServletRequest request, HttpServletResponse response, RuleSnapshot snapshot,
                            List<LimitDefinition> limits, List<Decision> decisions) throws IOException {
        int denying = mostRestrictiveDenial(decisions);
        if (denying < 0) {
            if (headersOnAllowed) {
                headers.write(response, limits, decisions, closestToLimit(decisions));
            }
            return true;
        }
        headers.write(response, limits, decisions, denying);
        reject(request, response, snapshot, limits.get(denying), decisions.get(denying));
        return false;
    }

    private boolean whitelisted(HttpServletRequest request, Whitelist configured) {
        if (whitelist.isEmpty() && configured.isEmpty()) {
            return false;
        }
        if (!whitelist.ips().isEmpty() || !configured.ips().isEmpty()) {
            String ip = identities.clientIp(request);
            if (whitelist.containsIp(ip) || configured.containsIp(ip)) {
                return true;
            }
        }
        if (!whitelist.users().isEmpty() || !configured.users().isEmpty()) {
            String user = identities.verifiedUser(request);
            return whitelist.containsUser(user) || configured.containsUser(user);
        }
        return false;
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, RuleSnapshot snapshot,
                        LimitDefinition limit, Decision decision) throws IOException {
        log(request, snapshot, limit, false);
        long retryAfter = Math.max(1, RateLimitHeaders.seconds(decision.retryAfterMillis()));
        String message = messages.message(limit.messageKey(), RequestContextUtils.getLocale(request), limit.count(),
                limit.windowSeconds(), retryAfter);
        rejectionHandler.reject(request, response, new Rejection(limit, decision, retryAfter, message));
    }

    private void refuseUnavailable(HttpServletRequest request, HttpServletResponse response,
                                   StoreUnavailableException unavailable) throws IOException {
        long retryAfter = Math.max(1, RateLimitHeaders.seconds(unavailable.retryAfter().toMillis()));
        String message = messages.message(RejectionMessages.UNAVAILABLE_KEY, RequestContextUtils.getLocale(request),
                retryAfter);
        rejectionHandler.unavailable(request, response, retryAfter, message);
    }

    private void log(HttpServletRequest request, RuleSnapshot snapshot, LimitDefinition limit, boolean shadow) {
        if (snapshot.logCheck()) {
            interceptionLog.record(new Interception(clock.instant(), limit.module(), limit.rule(),
                    identities.user(request), identities.clientIp(request), request.getMethod(),
                    request.getRequestURI(), limit.dimension(), limit.count(), limit.windowSeconds(), shadow));
        }
    }

    /** The denial that lasts longest, or -1 when every limit allows. */
    private static int mostRestrictiveDenial(List<Decision> decisions) {
        int worst = -1;
        for (int i = 0; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            if (!decision.allowed()
                    && (worst < 0 || decision.retryAfterMillis() > decisions.get(worst).retryAfterMillis())) {
                worst = i;
            }
        }
        return worst;
    }

    /** The limit with the fewest requests left; among equals, the one that takes longest to come back. */
    private static int closestToLimit(List<Decision> decisions) {
        int closest = 0;
        for (int i = 1; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            Decision best = decisions.get(closest);
            if (decision.remaining() < best.remaining()
                    || (decision.remaining() == best.remaining()
                        && decision.resetOrRetryMillis() > best.resetOrRetryMillis())) {
                closest = i;
            }
        }
        return closest;
    }
}
