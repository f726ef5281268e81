package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Writes the response of a request the limiter refuses. Declare a bean of this type to replace the
 * default JSON responses.
 */
@FunctionalInterface
public interface RejectionHandler {

    /** A limit denied the request. The {@code RateLimit-Policy}/{@code RateLimit} fields are already set. */
    void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection) throws IOException;

    /**
     * The request weighs more than its limit's whole count ({@code costExpression}): no wait would let it
     * pass, so it is not a rate limit rejection. By default a bare 400.
     */
    default void tooCostly(HttpServletRequest request, HttpServletResponse response, TooCostly refusal)
            throws IOException {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setHeader("Cache-Control", "no-store");
    }

    /**
     * The deny list refuses the client: by default a bare 403, with {@code Retry-After} when the entry ends.
     * No rate limit field is set: no limit counted the request.
     */
    default void denied(HttpServletRequest request, HttpServletResponse response, Denial denial) throws IOException {
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        if (denial.ends()) {
            response.setHeader("Retry-After", Long.toString(denial.retryAfterSeconds()));
        }
        response.setHeader("Cache-Control", "no-store");
    }

    /**
     * Redis does not answer and {@code ratelimit.redis-failure.mode=closed}: a limited request is refused
     * until it does. Not a rate limit rejection, so by default a bare 503 with {@code Retry-After}.
     *
     * @param retryAfterSeconds when Redis will be tried again
     * @param message           a text in the request's locale that says so
     */
    default void unavailable(HttpServletRequest request, HttpServletResponse response, long retryAfterSeconds,
                             String message) throws IOException {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
        response.setHeader("Cache-Control", "no-store");
    }
}
