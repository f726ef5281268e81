package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.accept.ContentNegotiationManager;

/**
 * The default rejection: for a client that prefers HTML (a browser), a page in the request's language
 * with the wait, the app's own error page for the status where it has one ({@link RefusalPage}); for
 * every other client the body of {@link JsonRejectionHandler}. Both carry the same status and headers.
 */
public class NegotiatedRejectionHandler implements RejectionHandler {

    static final String REJECTED_TITLE = "ratelimit.page.rejected";
    static final String UNAVAILABLE_TITLE = "ratelimit.page.unavailable";
    static final String TOO_COSTLY_TITLE = "ratelimit.page.tooCostly";
    static final String DENIED_TITLE = "ratelimit.page.denied";

    private final JsonRejectionHandler body;
    private final ResponseOptions options;
    private final MediaType bodyType;
    private final PagePreference preference;
    private final RefusalPage page;

    /**
     * @param app the app's beans: its content negotiation, view resolvers and Spring Boot error views, asked
     *            at the first refusal
     */
    public NegotiatedRejectionHandler(ResponseOptions options, RejectionMessages messages, ListableBeanFactory app) {
        this.body = new JsonRejectionHandler(options);
        this.options = options;
        this.bodyType = MediaType.parseMediaType(options.body().contentType());
        this.preference = new PagePreference(
                () -> app.getBeanProvider(ContentNegotiationManager.class).getIfUnique(ContentNegotiationManager::new));
        this.page = new RefusalPage(messages, app);
    }

    @Override
    public void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
            throws IOException {
        if (preference.prefersPage(request, bodyType)) {
            page.render(request, response, new RefusalPage.Content(options.status(), errorStatus(options.status(),
                    HttpStatus.TOO_MANY_REQUESTS), REJECTED_TITLE, rejection.message(), rejection.retryAfterSeconds()));
        } else {
            body.reject(request, response, rejection);
        }
    }

    @Override
    public void tooCostly(HttpServletRequest request, HttpServletResponse response, TooCostly refusal)
            throws IOException {
        if (preference.prefersPage(request, bodyType)) {
            page.render(request, response, new RefusalPage.Content(HttpStatus.BAD_REQUEST.value(),
                    HttpStatus.BAD_REQUEST, TOO_COSTLY_TITLE, refusal.message(), 0));
        } else {
            body.tooCostly(request, response, refusal);
        }
    }

    @Override
    public void denied(HttpServletRequest request, HttpServletResponse response, Denial denial) throws IOException {
        if (preference.prefersPage(request, bodyType)) {
            page.render(request, response, new RefusalPage.Content(options.deniedStatus(), errorStatus(
                    options.deniedStatus(), HttpStatus.FORBIDDEN), DENIED_TITLE, denial.message(), denial.retryAfterSeconds()));
        } else {
            body.denied(request, response, denial);
        }
    }

    @Override
    public void unavailable(HttpServletRequest request, HttpServletResponse response, long retryAfterSeconds,
                            String message) throws IOException {
        if (preference.prefersPage(request, bodyType)) {
            page.render(request, response, new RefusalPage.Content(HttpStatus.SERVICE_UNAVAILABLE.value(),
                    HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE_TITLE, message, retryAfterSeconds));
        } else {
            body.unavailable(request, response, retryAfterSeconds, message);
        }
    }

    /** The error page of the status answered; of {@code meaning} when that is no error (the legacy 200) or no known status. */
    private static HttpStatus errorStatus(int status, HttpStatus meaning) {
        HttpStatus answered = HttpStatus.resolve(status);
        return answered != null && answered.isError() ? answered : meaning;
    }
}
