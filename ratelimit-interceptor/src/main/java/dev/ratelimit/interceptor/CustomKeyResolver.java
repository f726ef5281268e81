package dev.ratelimit.interceptor;

import jakarta.servlet.http.HttpServletRequest;

/** Computes the identity of a {@link Dimension#CUSTOM} limit; return {@code null} to leave the request unlimited. */
@FunctionalInterface
public interface CustomKeyResolver {

    String resolve(HttpServletRequest request);
}
