package dev.ratelimit.console;

import dev.ratelimit.console.access.ChangeRefusedException;
import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.ConsoleLocales;
import dev.ratelimit.console.denylist.DenyDuration;
import dev.ratelimit.console.live.LiveSpan;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.servlet.ModelAndView;

/**
 * What every console page needs: its base path, the operator, the CSRF token, the language menu, the
 * live spans and the notes of a form's redirect; and the page of a change the operator's role refused.
 */
@ControllerAdvice(basePackages = "dev.ratelimit.console")
public class ConsoleModel {

    private final String path;

    public ConsoleModel(ConsoleProperties properties) {
        this.path = properties.path();
    }

    @ModelAttribute("consolePath")
    public String consolePath(HttpServletRequest request) {
        return request.getContextPath() + path;
    }

    @ModelAttribute("operator")
    public Object operator(HttpServletRequest request) {
        return request.getAttribute(ConsoleFilter.OPERATOR_ATTRIBUTE);
    }

    @ModelAttribute("csrf")
    public Object csrf(HttpServletRequest request) {
        return request.getAttribute(ConsoleFilter.CSRF_ATTRIBUTE);
    }

    /** What the redirect of a form tells the page, when the console signed it for this operator. */
    @ModelAttribute("notes")
    public PageNotes notes(HttpServletRequest request) {
        return PageNotes.of(request);
    }

    /** The spans the live charts offer (overview and rule page). */
    @ModelAttribute("liveSpans")
    public List<LiveSpan> liveSpans() {
        return List.of(LiveSpan.values());
    }

    /** The durations "deny for ..." offers beside a client (blocked clients, rule page, deny list). */
    @ModelAttribute("denyDurations")
    public List<DenyDuration> denyDurations() {
        return List.of(DenyDuration.values());
    }

    /** 403 with a page that says so; the attempt is already in the audit trail. */
    @ExceptionHandler(ChangeRefusedException.class)
    public ModelAndView refused(HttpServletRequest request) {
        ModelAndView page = new ModelAndView("ratelimit-console/refused", HttpStatus.FORBIDDEN);
        page.addObject("consolePath", consolePath(request));
        return page;
    }

    @ModelAttribute("languages")
    public List<Locale> languages() {
        return ConsoleLocales.SUPPORTED;
    }
}
