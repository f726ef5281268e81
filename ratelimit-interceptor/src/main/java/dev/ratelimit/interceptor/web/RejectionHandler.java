package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Writes the response of a rejected request. Declare a bean of this type to replace the default JSON
 * response. The {@code RateLimit-Policy}/{@code RateLimit} fields are set before it is called.
 */
@FunctionalInterface
public interface RejectionHandler {

    void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection) throws IOException;
}
