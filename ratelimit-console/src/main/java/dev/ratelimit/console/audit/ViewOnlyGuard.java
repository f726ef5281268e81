package dev.ratelimit.console.audit;

import dev.ratelimit.console.ReadOnlyForm;
import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.ConsoleOperator;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.util.UrlPathHelper;

/**
 * Refuses every form of the console to an operator whose role changes nothing (a viewer), whatever it
 * posts and before its controller reads it, so that a form added later cannot forget the check; the
 * attempt is recorded as refused ({@code refused form <path>}). Logging out stays open, and so do the forms
 * that change nothing ({@link ReadOnlyForm}, the preview of a rules document). What an operator
 * may change is checked field by field where the change is written ({@link AuditedEditor}).
 */
public class ViewOnlyGuard implements HandlerInterceptor {

    private final AuditedEditor editor;
    private final String logout;

    /** @param consolePath where the console is served */
    public ViewOnlyGuard(AuditedEditor editor, String consolePath) {
        this.editor = editor;
        this.logout = consolePath + "/logout";
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (ConsoleFilter.isSafe(request)
                || !(request.getAttribute(ConsoleFilter.OPERATOR_ATTRIBUTE) instanceof ConsoleOperator operator)
                || operator.mayChange()
                || handler instanceof HandlerMethod method && method.hasMethodAnnotation(ReadOnlyForm.class)) {
            return true;
        }
        String path = UrlPathHelper.defaultInstance.getPathWithinApplication(request);
        if (path.equals(logout)) {
            return true;
        }
        throw editor.refuse(operator, "form " + path);
    }
}
