package dev.ratelimit.interceptor.web;

/**
 * How the limiter answers: {@code ratelimit.response.*}.
 *
 * @param status           HTTP status of a rejection: 429, or 200 for the legacy contract (the body tells)
 * @param headersOnAllowed whether admitted responses of limited endpoints carry {@code RateLimit-Policy}/{@code RateLimit}
 * @param legacyHeaders    whether the fields are also sent as {@code X-RateLimit-Limit}/{@code -Remaining}/{@code -Reset}
 * @param body             body of the default rejection
 * @param deniedStatus     HTTP status of a refusal of the deny list ({@code ratelimit.deny-list.status})
 */
public record ResponseOptions(int status, boolean headersOnAllowed, boolean legacyHeaders, RejectionBody body,
                              int deniedStatus) {

    public ResponseOptions {
        status("ratelimit.response.status", status);
        status("ratelimit.deny-list.status", deniedStatus);
    }

    private static void status(String property, int status) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException(property + " must be an HTTP status (200-599), was " + status);
        }
    }
}
