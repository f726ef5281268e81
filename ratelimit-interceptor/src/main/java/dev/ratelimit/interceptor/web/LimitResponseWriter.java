package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * Writes what a {@link Verdict} means to the response: the rate limit fields, and the rejection, the
 * refusal of the deny list or the 503 of the failure policy through the {@link RejectionHandler}.
 */
public class LimitResponseWriter {

    private final RateLimitHeaders headers;
    private final boolean headersOnAllowed;
    private final RejectionHandler rejectionHandler;
    private final RejectionMessages messages;

    public LimitResponseWriter(ResponseOptions options, RejectionHandler rejectionHandler, RejectionMessages messages) {
        this.headers = new RateLimitHeaders(options.legacyHeaders());
        this.headersOnAllowed = options.headersOnAllowed();
        this.rejectionHandler = rejectionHandler;
        this.messages = messages;
    }

    /** @return whether the request goes on to its handler */
    boolean write(HttpServletRequest request, HttpServletResponse response, Verdict verdict) throws IOException {
        switch (verdict.kind()) {
            case PASS -> {
                return true;
            }
            case ADMIT -> {
                if (headersOnAllowed) {
                    headers.write(response, verdict.limits(), verdict.decisions(), verdict.reported());
                }
                return true;
            }
            case REJECT -> {
                headers.write(response, verdict.limits(), verdict.decisions(), verdict.reported());
                reject(request, response, verdict);
                return false;
            }
            case DENY -> {
                // No rate limit fields: no limit counted the request.
                long retryAfter = verdict.denial().until() == null ? 0
                        : Math.max(1, RateLimitHeaders.seconds(verdict.retryAfter().toMillis()));
                rejectionHandler.denied(request, response, new Denial(verdict.denial(), retryAfter,
                        messages.message(RejectionMessages.DENIED_KEY, RequestContextUtils.getLocale(request))));
                return false;
            }
            case TOO_COSTLY -> {
                LimitDefinition limit = verdict.reportedLimit();
                String message = messages.message(RejectionMessages.TOO_COSTLY_KEY,
                        RequestContextUtils.getLocale(request), verdict.cost(), limit.count(), limit.windowSeconds());
                rejectionHandler.tooCostly(request, response, new TooCostly(limit, verdict.cost(), message));
                return false;
            }
            default -> {
                refuse(request, response, verdict);
                return false;
            }
        }
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, Verdict verdict) throws IOException {
        LimitDefinition limit = verdict.reportedLimit();
        long retryAfter = Math.max(1, RateLimitHeaders.seconds(verdict.reportedDecision().retryAfterMillis()));
        String message = messages.message(limit.messageKey(), RequestContextUtils.getLocale(request), limit.count(),
                limit.windowSeconds(), retryAfter);
        rejectionHandler.reject(request, response, new Rejection(limit, verdict.reportedDecision(), retryAfter, message));
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, Verdict verdict) throws IOException {
        long retryAfter = Math.max(1, RateLimitHeaders.seconds(verdict.retryAfter().toMillis()));
        String message = messages.message(RejectionMessages.UNAVAILABLE_KEY, RequestContextUtils.getLocale(request),
                retryAfter);
        rejectionHandler.unavailable(request, response, retryAfter, message);
    }
}
