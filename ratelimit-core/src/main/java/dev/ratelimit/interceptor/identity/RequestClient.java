package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import org.jspecify.annotations.Nullable;

/**
 * The client of the web request a call in the app is made in, as limits see it: a bean method called while a
 * request is being handled counts that request's user and address. A scheduled job, a message listener or an
 * app without a web layer makes its calls in no request.
 */
public interface RequestClient {

    /** The client's address, after the trusted proxies. */
    String clientIp();

    /** The user the request names, or {@code null}. */
    @Nullable String user();

    /** The user the server established (for the whitelist), or {@code null}. */
    @Nullable String verifiedUser();

    /** The identity to count under for a {@code USER} or {@code IP} limit, or {@code null} when it has none. */
    @Nullable String identity(LimitDefinition limit);
}
