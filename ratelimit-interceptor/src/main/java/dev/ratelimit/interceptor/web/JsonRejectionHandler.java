package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The default rejection: status 429 (or the configured one, e.g. 200 for front ends that read the
 * body only), {@code Retry-After}, {@code Cache-Control: no-store} and a JSON body
 * ({@link RejectionBody}). The rate limit fields are already set by the interceptor. While Redis does
 * not answer in {@code closed} mode: 503 with the same headers and a body of the same kind that says so. A
 * client on the deny list: 403 (or {@code ratelimit.deny-list.status}), {@code Retry-After} when its entry ends.
 */
public class JsonRejectionHandler implements RejectionHandler {

    private final int status;
    private final int deniedStatus;
    private final RejectionBody body;

    public JsonRejectionHandler(ResponseOptions options) {
        this.status = options.status();
        this.deniedStatus = options.deniedStatus();
        this.body = options.body();
    }

    @Override
    public void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
            throws IOException {
        response.setStatus(status);
        response.setHeader("Retry-After", Long.toString(rejection.retryAfterSeconds()));
        response.setHeader("Cache-Control", "no-store");
        response.setContentType(body.contentType());
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(body.render(request, rejection, status));
    }

    @Override
    public void tooCostly(HttpServletRequest request, HttpServletResponse response, TooCostly refusal)
            throws IOException {
        RejectionHandler.super.tooCostly(request, response, refusal);
        response.setContentType(body.contentType());
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(body.renderTooCostly(request, refusal));
    }

    @Override
    public void denied(HttpServletRequest request, HttpServletResponse response, Denial denial) throws IOException {
        RejectionHandler.super.denied(request, response, denial);
        response.setStatus(deniedStatus);
        response.setContentType(body.contentType());
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(body.renderDenied(request, denial, deniedStatus));
    }

    @Override
    public void unavailable(HttpServletRequest request, HttpServletResponse response, long retryAfterSeconds,
                            String message) throws IOException {
        RejectionHandler.super.unavailable(request, response, retryAfterSeconds, message);
        response.setContentType(body.contentType());
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(body.renderUnavailable(request, message, retryAfterSeconds));
    }
}
