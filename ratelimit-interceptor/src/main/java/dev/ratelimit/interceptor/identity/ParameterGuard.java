package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Enumeration;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A request whose parameters, when the container cannot decode them (Tomcat throws for a query string
 * that is not valid in its encoding), fail with {@link UnreadableRequestException}: whoever reads them
 * for a limit, the limiter's own lookup or an app's key expression, the failure is told apart from any
 * other and the request is refused instead of passing with its limit skipped.
 */
final class ParameterGuard extends HttpServletRequestWrapper {

    ParameterGuard(HttpServletRequest request) {
        super(request);
    }

    @Override
    public String getParameter(String name) {
        return guarded(() -> super.getParameter(name));
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return guarded(super::getParameterMap);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return guarded(super::getParameterNames);
    }

    @Override
    public String[] getParameterValues(String name) {
        return guarded(() -> super.getParameterValues(name));
    }

    /** The cause of {@code error} that says the parameters could not be read, or {@code null}. */
    static @Nullable UnreadableRequestException unreadable(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnreadableRequestException unreadable) {
                return unreadable;
            }
        }
        return null;
    }

    private static <T> T guarded(Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            throw new UnreadableRequestException("cannot read the request parameters", e);
        }
    }
}
