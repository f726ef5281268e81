package dev.ratelimit.console;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.ModelAndView;

/**
 * The console's own page for an error answered at one of its addresses: an address that is no page, one
 * the app's Spring Security firewall rejects as malformed (a doubled slash, a {@code ;}, an encoded
 * {@code %} or line break: 400), a form visited instead of posted, a failure. It says what the status means
 * and links back to the overview, in the console's look and language, instead of Spring Boot's white-label
 * page; it names no operator and shows no data. Other addresses, and clients that do not ask for HTML, keep
 * the app's error handling.
 */
public class ConsoleErrorPages implements ErrorViewResolver, Ordered {

    private final String path;

    public ConsoleErrorPages(ConsoleProperties properties) {
        this.path = properties.path();
    }

    @Override
    public ModelAndView resolveErrorView(HttpServletRequest request, HttpStatus status, Map<String, Object> model) {
        if (!(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) || !isConsole(request, uri)) {
            return null;
        }
        ModelAndView page = new ModelAndView("ratelimit-console/error", status);
        page.addObject("consolePath", request.getContextPath() + path);
        page.addObject("status", status.value());
        page.addObject("meaning", "console.error." + switch (status) {
            case BAD_REQUEST, FORBIDDEN, NOT_FOUND, METHOD_NOT_ALLOWED -> Integer.toString(status.value());
            default -> status.is5xxServerError() ? "failed" : "other";
        });
        return page;
    }

    /** Whether the address asked for is the console's, however malformed: doubled slashes and {@code ;} parameters aside. */
    private boolean isConsole(HttpServletRequest request, String uri) {
        String within = uri.substring(uri.startsWith(request.getContextPath()) ? request.getContextPath().length() : 0)
                .replaceAll(";[^/]*", "").replaceAll("/{2,}", "/");
        return within.equals(path) || within.startsWith(path + "/");
    }

    /** Before Spring Boot's own resolver, which would answer every address with the app's {@code error/<status>} view. */
    @Override
    public int getOrder() {
        return 0;
    }
}
