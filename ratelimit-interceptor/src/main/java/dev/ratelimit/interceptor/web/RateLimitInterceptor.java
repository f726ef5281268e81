package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.UnreadableRequestException;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * The request path. Registered on {@code /**} ahead of every other interceptor: finds the endpoint of
 * the handler, has the {@link RequestLimiter} decide, and writes the verdict to the response. A request
 * the limiter cannot read (a query string the container cannot decode) is answered 400 as the container
 * would, never let through uncounted, and logged once per cause rather than once per request.
 */
public class RateLimitInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(RateLimitInterceptor.class);

    private final EndpointCatalog catalog;
    private final RequestLimiter limiter;
    private final DimensionKeys identities;
    private final LimitResponseWriter responses;
    private final Set<String> reportedUnreadable = ConcurrentHashMap.newKeySet();

    public RateLimitInterceptor(EndpointCatalog catalog, RequestLimiter limiter, DimensionKeys identities,
                                LimitResponseWriter responses) {
        this.catalog = catalog;
        this.limiter = limiter;
        this.identities = identities;
        this.responses = responses;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        if (!(handler instanceof HandlerMethod handlerMethod)) {
            return true;
        }
        Endpoint endpoint = catalog.endpoint(handlerMethod);
        if (endpoint == null) {
            return true;
        }
        Verdict verdict;
        try {
            verdict = limiter.decide(endpoint, new ServletLimitedRequest(request, identities));
        } catch (UnreadableRequestException e) {
            reportUnreadable(e);
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return false;
        }
        return responses.write(request, response, verdict);
    }

    private void reportUnreadable(UnreadableRequestException e) {
        String cause = e.getCause() == null ? e.getMessage() : e.getCause().getClass().getName();
        if (reportedUnreadable.size() < 100 && reportedUnreadable.add(cause)) {
            log.warn("Rate limiter: answering 400 to a request it cannot read ({}: {}); further ones are logged at "
                    + "debug level", e.getMessage(), String.valueOf(e.getCause()));
        } else {
            log.debug("Rate limiter: answering 400 to a request it cannot read: {}", e.toString());
        }
    }
}
