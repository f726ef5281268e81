package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * Writes what a {@link Verdict} means to the response: the rate limit fields, and the rejection, the
 * refusal of the deny list or the 503 of the failure policy through the {@link RejectionHandler}, in the
 * language the app's own locale resolution gives the request ({@link RefusalLocale}): the handler gets the
 * request that resolves it.
 */
public class LimitResponseWriter {

    private final RateLimitHeaders headers;
    private final boolean headersOnAllowed;
    private final RejectionHandler rejectionHandler;
    private final RejectionMessages messages;
    private final RefusalLocale locales;

    /** @param mappings the app's handler mappings in the order its {@code DispatcherServlet} asks them, asked at the first refusal */
    public LimitResponseWriter(ResponseOptions options, RejectionHandler rejectionHandler, RejectionMessages messages,
                               Supplier<List<HandlerMapping>> mappings) {
        this.headers = new RateLimitHeaders(options.legacyHeaders());
        this.headersOnAllowed = options.headersOnAllowed();
        this.rejectionHandler = rejectionHandler;
        this.messages = messages;
        this.locales = new RefusalLocale(mappings);
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
                reject(locales.localized(request, response), response, verdict);
                return false;
            }
            default -> {
                refuse(locales.localized(request, response), response, verdict);
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

    /** A refusal that is not a limit's: the deny list's, a request heavier than its limit, or the failure policy's 503. */
    private void refuse(HttpServletRequest request, HttpServletResponse response, Verdict verdict) throws IOException {
        Locale locale = RequestContextUtils.getLocale(request);
        switch (verdict.kind()) {
            case DENY -> {
                // No rate limit fields: no limit counted the request.
                DenyList.Entry denial = Objects.requireNonNull(verdict.denial(), "a DENY verdict names its entry");
                long retryAfter = denial.until() == null ? 0
                        : Math.max(1, RateLimitHeaders.seconds(verdict.retryAfter().toMillis()));
                rejectionHandler.denied(request, response, new Denial(denial, retryAfter,
                        messages.message(RejectionMessages.DENIED_KEY, locale)));
            }
            case TOO_COSTLY -> {
                LimitDefinition limit = verdict.reportedLimit();
                String message = messages.message(RejectionMessages.TOO_COSTLY_KEY, locale, verdict.cost(),
                        limit.count(), limit.windowSeconds());
                rejectionHandler.tooCostly(request, response, new TooCostly(limit, verdict.cost(), message));
            }
            default -> {
                long retryAfter = Math.max(1, RateLimitHeaders.seconds(verdict.retryAfter().toMillis()));
                rejectionHandler.unavailable(request, response, retryAfter,
                        messages.message(RejectionMessages.UNAVAILABLE_KEY, locale, retryAfter));
            }
        }
    }
}
