package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Decision;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The IETF rate limit fields (draft-ietf-httpapi-ratelimit-headers): {@code RateLimit-Policy} names
 * a rule's quota {@code q} per window {@code w}; {@code RateLimit} tells what is left {@code r} and
 * when the quota is whole again {@code t}. Policy names are the rule names, as structured-field strings.
 */
final class RateLimitHeaders {

    static final String POLICY = "RateLimit-Policy";
    static final String STATE = "RateLimit";

    private RateLimitHeaders() {
    }

    static void write(HttpServletResponse response, LimitDefinition limit, Decision decision) {
        String name = quoted(limit.rule());
        response.setHeader(POLICY, name + ";q=" + limit.count() + ";w=" + limit.windowSeconds());
        response.setHeader(STATE, name + ";r=" + decision.remaining() + ";t=" + seconds(decision.resetMillis()));
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
