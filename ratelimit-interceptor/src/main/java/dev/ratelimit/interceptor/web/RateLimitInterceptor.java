package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RateLimitStore;
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
 * force for the handler (from the immutable rule snapshot, without calling Redis), counts the request
 * against all of them in one store call, and rejects it if any denies. A store failure lets the
 * request pass: the limiter must never be the reason a request fails.
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
    private final RateLimitHeaders headers;
    private final boolean headersOnAllowed;
    private final Clock clock;
    private final FailureWarnings failures = new FailureWarnings();

    /**
     * @param headersOnAllowed whether admitted responses carry the rate limit fields
     * @param legacyHeaders    whether the fields are also sent as {@code X-RateLimit-Limit/Remaining/Reset}
     */
    public RateLimitInterceptor(EndpointCatalog catalog, RuleSnapshotHolder snapshots, DimensionKeys identities,
                                RedisKeys keys, RateLimitStore store, RejectionHandler rejectionHandler,
                                RejectionMessages messages, InterceptionLog interceptionLog,
                                boolean headersOnAllowed, boolean legacyHeaders, Clock clock) {
        this.catalog = catalog;
        this.snapshots = snapshots;
        this.limits = new LimitResolver(catalog.naming().module());
        this.identities = identities;
        this.keys = keys;
        this.store = store;
        this.rejectionHandler = rejectionHandler;
        this.messages = messages;
        this.interceptionLog = interceptionLog;
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
        List<LimitDefinition> counted = new ArrayList<>(inForce.size());
        List<CounterRequest> counters = new ArrayList<>(inForce.size());
        for (LimitDefinition limit : inForce) {
            String identity = identities.identity(request, limit);
            if (identity != null) {
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
        try {
            decisions = store.acquire(counters);
        } catch (RuntimeException e) {
            failures.warn(e);
            return true;
        }
        int denying = mostRestrictiveDenial(decisions);
        if (denying < 0) {
            if (headersOnAllowed) {
                headers.write(response, counted, decisions, closestToLimit(decisions));
            }
            return true;
        }
        headers.write(response, counted, decisions, denying);
        reject(request, response, snapshot, counted.get(denying), decisions.get(denying));
        return false;
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, RuleSnapshot snapshot,
                        LimitDefinition limit, Decision decision) throws IOException {
        if (snapshot.logCheck()) {
            interceptionLog.record(new Interception(clock.instant(), limit.module(), limit.rule(),
                    identities.user(request), identities.clientIp(request), request.getMethod(),
                    request.getRequestURI(), limit.dimension(), limit.count(), limit.windowSeconds(), false));
        }
        long retryAfter = Math.max(1, RateLimitHeaders.seconds(decision.retryAfterMillis()));
        String message = messages.message(limit.messageKey(), RequestContextUtils.getLocale(request), limit.count(),
                limit.windowSeconds(), retryAfter);
        rejectionHandler.reject(request, response, new Rejection(limit, decision, retryAfter, message));
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
