package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import org.jspecify.annotations.Nullable;

/**
 * What deciding needs to know of a request, without the servlet API: the web layer reads it from the
 * request, tests can make one up. Read lazily: an endpoint without a limit never resolves a client.
 */
public interface LimitedRequest {

    /** The path within the application, matched against {@code dynuri.*} patterns. */
    String path();

    /** The identity to count the request under for {@code limit}, or {@code null} when the limit does not apply to it. */
    @Nullable String identity(LimitDefinition limit);

    /** The units the request takes from {@code limit}: its fixed cost, or its cost expression's value. */
    long cost(LimitDefinition limit);

    /** The client's plan for {@code limit}, whose {@code plan} expression is not empty; {@code null} for none. */
    @Nullable String plan(LimitDefinition limit);

    /** The client address as the trusted-proxy rules see it, or {@code null} for a call outside an HTTP request. */
    @Nullable String clientIp();

    /** The user code, or {@code null}. */
    @Nullable String user();

    /**
     * The user code as the server established it, for the whitelist, or {@code null}; see
     * {@code IdentityResolver#verifiedUser}.
     */
    @Nullable String verifiedUser();

    String httpMethod();

    /** The request URI, for the interception log. */
    String uri();
}
