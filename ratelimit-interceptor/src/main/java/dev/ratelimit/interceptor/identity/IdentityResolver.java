package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Tells who the user of a request is, for {@code Dimension.USER} limits and the interception log.
 * Declare a bean of this type to replace the default lookup entirely.
 */
@FunctionalInterface
public interface IdentityResolver {

    /** The user code, or {@code null} when the request has none (its USER limits then do not apply). */
    String user(HttpServletRequest request);
}
