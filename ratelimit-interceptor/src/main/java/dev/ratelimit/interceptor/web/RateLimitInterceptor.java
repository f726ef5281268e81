package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Reservation;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.UnreadableRequestException;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.AsyncHandlerInterceptor;

/**
 * The request path. Registered on {@code /**} ahead of every other interceptor: finds the endpoint of
 * the handler, has the {@link RequestLimiter} decide, and writes the verdict to the response. A request
 * the limiter cannot read (a query string the container cannot decode) is answered 400 as the container
 * would, never let through uncounted, and logged once per cause rather than once per request. When the
 * request is complete, the units it took from limits with a {@code countWhen} go back unless its
 * response matches, its estimates are settled at what its response says it used, and its concurrency
 * leases are released: in {@code afterCompletion}, or, for a request whose handler answers
 * asynchronously, when the asynchronous processing completes, times out or fails (whichever of the last
 * dispatch's {@code afterCompletion} and the container's {@code onComplete} comes first; exactly once).
 */
public class RateLimitInterceptor implements AsyncHandlerInterceptor {

    /**
     * The request attribute holding the request's {@link Reservation}s from {@code preHandle} to
     * {@code afterCompletion}; an {@link AsyncEnding} of them once the handler went asynchronous.
     */
    private static final String RESERVATIONS = RateLimitInterceptor.class.getName() + ".reservations";

    private static final Logger log = LoggerFactory.getLogger(RateLimitInterceptor.class);

    private final EndpointCatalog catalog;
    private final RequestLimiter limiter;
    private final DimensionKeys identities;
    private final LimitResponseWriter responses;
    private final ResponseExpressions responseExpressions;
    private final RequestExpressions costs;
    private final Set<String> reportedUnreadable = ConcurrentHashMap.newKeySet();

    public RateLimitInterceptor(EndpointCatalog catalog, RequestLimiter limiter, DimensionKeys identities,
                                LimitResponseWriter responses, ResponseExpressions responseExpressions,
                                RequestExpressions costs) {
        this.catalog = catalog;
        this.limiter = limiter;
        this.identities = identities;
        this.responses = responses;
        this.responseExpressions = responseExpressions;
        this.costs = costs;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        // An asynchronous handler's answer, a forward or an error page is the same request dispatched again:
        // it was decided, and counted, on its first dispatch.
        if (!(handler instanceof HandlerMethod handlerMethod) || request.getDispatcherType() != DispatcherType.REQUEST) {
            return true;
        }
        Endpoint endpoint = HandlerEndpoints.of(catalog, handlerMethod);
        if (endpoint == null) {
            return true;
        }
        Verdict verdict;
        try {
            verdict = limiter.decide(endpoint, new ServletLimitedRequest(request, identities, costs));
        } catch (UnreadableRequestException e) {
            reportUnreadable(e);
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return false;
        }
        if (!verdict.reservations().isEmpty()) {
            request.setAttribute(RESERVATIONS, verdict.reservations());
        }
        return responses.write(request, response, verdict);
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
                                @Nullable Exception ex) {
        Object reservations = request.getAttribute(RESERVATIONS);
        if (reservations instanceof List<?> taken) {
            request.removeAttribute(RESERVATIONS);
            complete(taken, request, response, ex);
        } else if (reservations instanceof AsyncEnding ending) {
            ending.end(request, response, ex);
        }
    }

    /**
     * The handler went asynchronous: the request ends when its asynchronous processing does, which the
     * container reports even when no dispatch follows (a timeout or an error nothing handled).
     */
    @Override
    public void afterConcurrentHandlingStarted(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getAttribute(RESERVATIONS) instanceof List<?> taken) {
            AsyncEnding ending = new AsyncEnding(taken, request, response);
            request.setAttribute(RESERVATIONS, ending);
            request.getAsyncContext().addListener(ending);
        }
    }

    private void complete(List<?> reservations, HttpServletRequest request, HttpServletResponse response,
                          @Nullable Exception ex) {
        // An exception nothing handled becomes a 500 after this point, whatever the status says now.
        int status = ex != null && response.getStatus() < HttpServletResponse.SC_BAD_REQUEST
                ? HttpServletResponse.SC_INTERNAL_SERVER_ERROR : response.getStatus();
        List<Reservation> taken = new ArrayList<>(reservations.size());
        reservations.forEach(reservation -> taken.add((Reservation) reservation));
        limiter.complete(taken, new ServletCompletion(responseExpressions, status, request, response));
    }

    /** The ending of an asynchronous request: by its last dispatch's {@code afterCompletion} or the container's {@code onComplete}, once. */
    private final class AsyncEnding implements AsyncListener {

        private final List<?> reservations;
        private final HttpServletRequest request;
        private final HttpServletResponse response;
        private final AtomicBoolean ended = new AtomicBoolean();

        AsyncEnding(List<?> reservations, HttpServletRequest request, HttpServletResponse response) {
            this.reservations = reservations;
            this.request = request;
            this.response = response;
        }

        void end(HttpServletRequest request, HttpServletResponse response, @Nullable Exception ex) {
            if (ended.compareAndSet(false, true)) {
                complete(reservations, request, response, ex);
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
            end(request, response, null);
        }

        /** A new asynchronous cycle drops the listeners of the last one: this one stays. */
        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }
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
