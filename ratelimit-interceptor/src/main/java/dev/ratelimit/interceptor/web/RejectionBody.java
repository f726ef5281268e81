package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;

/** The body of the default rejection: {@code ratelimit.response.body}. */
public enum RejectionBody {

    /** {@code {"error": <text>, "successful": 0, "ratelimit": 1, "retryAfter": <seconds>}}, which existing front ends read. */
    JSON("application/json") {
        @Override
        String render(HttpServletRequest request, Rejection rejection, int status) {
            return "{\"error\":" + jsonString(rejection.message()) + ",\"successful\":0,\"ratelimit\":1,"
                    + "\"retryAfter\":" + rejection.retryAfterSeconds() + "}";
        }

        /** Told apart from a rejection by the missing {@code retryAfter}: waiting would not help; {@code cost} says why. */
        @Override
        String renderTooCostly(HttpServletRequest request, TooCostly refusal) {
            return "{\"error\":" + jsonString(refusal.message()) + ",\"successful\":0,\"ratelimit\":1,"
                    + "\"cost\":" + refusal.cost() + ",\"limit\":" + refusal.limit().count() + "}";
        }

        /** Told apart from a rejection by {@code "denied":1}: no wait helps unless the entry ends ({@code retryAfter}). */
        @Override
        String renderDenied(HttpServletRequest request, Denial denial, int status) {
            return "{\"error\":" + jsonString(denial.message()) + ",\"successful\":0,\"ratelimit\":1,\"denied\":1"
                    + (denial.ends() ? ",\"retryAfter\":" + denial.retryAfterSeconds() : "") + "}";
        }

        /** Told apart from a rejection by {@code "ratelimit":0}: the limit did not deny, the limiter could not decide. */
        @Override
        String renderUnavailable(HttpServletRequest request, String message, long retryAfterSeconds) {
            return "{\"error\":" + jsonString(message) + ",\"successful\":0,\"ratelimit\":0,"
                    + "\"retryAfter\":" + retryAfterSeconds + "}";
        }
    },

    /**
     * An RFC 9457 problem: {@code type}, {@code title}, {@code status}, {@code detail} (the localized
     * text), {@code instance} (the request path), and the extensions {@code retryAfter} (seconds) and
     * {@code policy} (the rule that denied).
     */
    PROBLEM("application/problem+json") {
        @Override
        String render(HttpServletRequest request, Rejection rejection, int status) {
            return "{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":" + status
                    + ",\"detail\":" + jsonString(rejection.message())
                    + ",\"instance\":" + jsonString(request.getRequestURI())
                    + ",\"retryAfter\":" + rejection.retryAfterSeconds()
                    + ",\"policy\":" + jsonString(rejection.limit().id().rule()) + "}";
        }

        @Override
        String renderTooCostly(HttpServletRequest request, TooCostly refusal) {
            return "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400"
                    + ",\"detail\":" + jsonString(refusal.message())
                    + ",\"instance\":" + jsonString(request.getRequestURI())
                    + ",\"cost\":" + refusal.cost() + ",\"limit\":" + refusal.limit().count()
                    + ",\"policy\":" + jsonString(refusal.limit().id().rule()) + "}";
        }

        @Override
        String renderDenied(HttpServletRequest request, Denial denial, int status) {
            HttpStatus known = HttpStatus.resolve(status);
            return "{\"type\":\"about:blank\",\"title\":" + jsonString(known == null ? "Forbidden" : known.getReasonPhrase())
                    + ",\"status\":" + status
                    + ",\"detail\":" + jsonString(denial.message())
                    + ",\"instance\":" + jsonString(request.getRequestURI())
                    + ",\"denied\":true"
                    + (denial.ends() ? ",\"retryAfter\":" + denial.retryAfterSeconds() : "") + "}";
        }

        @Override
        String renderUnavailable(HttpServletRequest request, String message, long retryAfterSeconds) {
            return "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503"
                    + ",\"detail\":" + jsonString(message)
                    + ",\"instance\":" + jsonString(request.getRequestURI())
                    + ",\"retryAfter\":" + retryAfterSeconds + "}";
        }
    };

    private final String contentType;

    RejectionBody(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }

    abstract String render(HttpServletRequest request, Rejection rejection, int status);

    /** The body of a 400 for a request heavier than its limit's count. */
    abstract String renderTooCostly(HttpServletRequest request, TooCostly refusal);

    /** The body of a refusal of the deny list, answered with {@code status}. */
    abstract String renderDenied(HttpServletRequest request, Denial denial, int status);

    /** The body of a 503 while Redis does not answer in {@code closed} mode. */
    abstract String renderUnavailable(HttpServletRequest request, String message, long retryAfterSeconds);

    /** A JSON string literal; also escapes {@code < > &} and the JavaScript line separators, so the body is safe in HTML too. */
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
