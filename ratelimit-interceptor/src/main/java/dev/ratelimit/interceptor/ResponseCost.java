package dev.ratelimit.interceptor;

import jakarta.servlet.ServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * What a request used, as its handler reports it, for the limits that settle a request's cost after its
 * response ({@code @RateLimit(costFromResponse = "#reported")}): the tokens it generated, the bytes it
 * sent, the rows it scanned. Reports of one request add up.
 *
 * <pre>{@code
 * @RateLimit(count = 10_000, interval = 1, unit = TimeUnit.MINUTES, cost = 500, costFromResponse = "#reported")
 * @PostMapping("/complete")
 * Completion complete(...) {
 *     Completion completion = model.complete(prompt);
 *     ResponseCost.report(completion.tokens());
 *     return completion;
 * }
 * }</pre>
 */
public final class ResponseCost {

    private static final String ATTRIBUTE = ResponseCost.class.getName() + ".reported";

    private ResponseCost() {
    }

    /**
     * Adds {@code units} to what the current request reports. On the request's thread only: an asynchronous
     * handler reports through {@link #report(ServletRequest, long)}.
     *
     * @throws IllegalStateException when the thread serves no request
     */
    public static void report(long units) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            throw new IllegalStateException("ResponseCost.report(units) is called on the thread of a request; "
                    + "elsewhere, report(request, units)");
        }
        report(attributes.getRequest(), units);
    }

    /** Adds {@code units} to what {@code request} reports, from one thread at a time. */
    public static void report(ServletRequest request, long units) {
        if (units < 0) {
            throw new IllegalArgumentException("a request uses 0 units or more, reported " + units);
        }
        Long reported = reported(request);
        request.setAttribute(ATTRIBUTE, reported == null ? units : Math.addExact(reported, units));
    }

    /** What {@code request} reported so far, or {@code null} when nothing. */
    public static Long reported(ServletRequest request) {
        return (Long) request.getAttribute(ATTRIBUTE);
    }
}
