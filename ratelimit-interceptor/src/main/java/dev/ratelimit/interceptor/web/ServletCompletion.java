package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.Completion;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

/**
 * A finished servlet request as the limits that look at its outcome read it: its response's expressions
 * ({@code countWhen}, {@code costFromResponse}).
 *
 * @param status the status the client gets
 */
record ServletCompletion(ResponseExpressions expressions, int status, HttpServletRequest request,
                         HttpServletResponse response) implements Completion {

    @Override
    public boolean counts(String countWhen) {
        return expressions.counts(countWhen, status, request, response);
    }

    @Override
    public @Nullable Long cost(String costFromResponse) {
        return expressions.cost(costFromResponse, status, request, response);
    }
}
