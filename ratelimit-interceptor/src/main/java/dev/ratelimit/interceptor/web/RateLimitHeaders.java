package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.PerRuleCache;
import dev.ratelimit.interceptor.store.Decision;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;

/**
 * The IETF rate limit fields (draft-ietf-httpapi-ratelimit-headers-10), as Structured Field lists:
 * {@code RateLimit-Policy} names every limit that counted the request, with its quota {@code q} per
 * window {@code w} seconds; {@code RateLimit} reports one of them: what is left {@code r} and, in whole
 * seconds rounded up, {@code t}: when {@code r} is 0 the time until a request is admitted again
 * (so {@code Retry-After} is never earlier than {@code t}), otherwise the time until the whole quota is
 * back. Policy names are the rule names, as sf-strings. Optionally also the legacy
 * {@code X-RateLimit-Limit}/{@code -Remaining}/{@code -Reset} (reset in seconds from now, as {@code t}).
 * A concurrency limit is left out: it has no quota per window for the fields to describe.
 */
final class RateLimitHeaders {

    static final String POLICY = "RateLimit-Policy";
    static final String STATE = "RateLimit";
    static final String LEGACY_LIMIT = "X-RateLimit-Limit";
    static final String LEGACY_REMAINING = "X-RateLimit-Remaining";
    static final String LEGACY_RESET = "X-RateLimit-Reset";

    private final boolean legacy;
    /**
     * Each rule's policy text as last written: every allowed request of a limited endpoint writes it, and it
     * only changes with the limit's quota.
     */
    private final PerRuleCache<Policy> policies = new PerRuleCache<>(Policy::describes, Policy::of);

    RateLimitHeaders(boolean legacy) {
        this.legacy = legacy;
    }

    /**
     * The policies of all {@code limits} and the state of {@code limits.get(reported)}, but for concurrency
     * limits: nothing when they are all there is.
     */
    void write(HttpServletResponse response, List<LimitDefinition> limits, List<Decision> decisions, int reported) {
        String policyList = null;
        StringBuilder several = null;
        for (LimitDefinition limit : limits) {
            if (limit.isConcurrency()) {
                continue;
            }
            String policy = policies.get(limit).text();
            if (policyList == null) {
                policyList = policy;
            } else {
                if (several == null) {
                    several = new StringBuilder(policyList);
                }
                several.append(", ").append(policy);
            }
        }
        if (policyList == null) {
            return;
        }
        response.setHeader(POLICY, several == null ? policyList : several.toString());
        LimitDefinition limit = limits.get(reported);
        if (limit.isConcurrency()) {
            return; // denied by a concurrency limit: Retry-After says when to try again
        }
        Decision decision = decisions.get(reported);
        long t = seconds(decision.resetOrRetryMillis());
        response.setHeader(STATE, policies.get(limit).name() + ";r=" + decision.remaining() + ";t=" + t);
        if (legacy) {
            response.setHeader(LEGACY_LIMIT, Long.toString(limit.count()));
            response.setHeader(LEGACY_REMAINING, Long.toString(decision.remaining()));
            response.setHeader(LEGACY_RESET, Long.toString(t));
        }
    }

    /**
     * One limit's item of {@code RateLimit-Policy}, and its name as the {@code RateLimit} field names it.
     *
     * @param name the rule's name as an sf-string
     */
    private record Policy(long count, long windowSeconds, String name, String text) {

        static Policy of(LimitDefinition limit) {
            String name = quoted(limit.id().rule());
            return new Policy(limit.count(), limit.windowSeconds(), name,
                    name + ";q=" + limit.count() + ";w=" + limit.windowSeconds());
        }

        boolean describes(LimitDefinition limit) {
            return count == limit.count() && windowSeconds == limit.windowSeconds();
        }
    }

    /** Whole seconds, rounded up. */
    static long seconds(long millis) {
        return Math.max(0, (millis + 999) / 1000);
    }

    /** An sf-string: printable ASCII with {@code "} and {@code \} escaped; anything else becomes {@code ?}. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                out.append(c >= ' ' && c < 0x7f ? c : '?');
            }
        }
        return out.append('"').toString();
    }
}
