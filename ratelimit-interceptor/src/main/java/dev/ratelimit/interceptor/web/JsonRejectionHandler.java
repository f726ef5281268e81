package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The default rejection: status 429 (or the configured one, e.g. 200 for front ends that read the
 * body only), {@code Retry-After}, the rate limit fields, and
 * {@code {"error": "<text>", "successful": 0, "ratelimit": 1, "retryAfter": <seconds>}}.
 */
public class JsonRejectionHandler implements RejectionHandler {

    private final int status;

    public JsonRejectionHandler(int status) {
        this.status = status;
    }

    @Override
    public void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
            throws IOException {
        response.setStatus(status);
        response.setHeader("Retry-After", Long.toString(rejection.retryAfterSeconds()));
        response.setHeader("Cache-Control", "no-store");
        RateLimitHeaders.write(response, rejection.limit(), rejection.decision());
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"error\":" + jsonString(rejection.message()) + ",\"successful\":0,\"ratelimit\":1,"
                + "\"retryAfter\":" + rejection.retryAfterSeconds() + "}");
    }

    static String jsonString(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
