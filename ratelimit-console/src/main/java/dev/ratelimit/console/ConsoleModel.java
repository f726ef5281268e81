package dev.ratelimit.console;

import dev.ratelimit.console.access.ChangeRefusedException;
import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.ConsoleLocales;
import dev.ratelimit.console.denylist.DenyDuration;
import dev.ratelimit.console.live.LiveSpan;
import io.lettuce.core.RedisException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.servlet.ModelAndView;

/**
 * What every console page needs: its base path, the operator, the CSRF token, the language menu, the
 * live spans and the notes of a form's redirect; the page of a change the operator's role refused; and
 * how a page says that Redis did not answer.
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

    /**
     * What a page shows when Redis, where its content lives, did not answer: 503, and the notice in place of
     * that content (the template shows {@code redisError} and hides what it could not read).
     */
    public static void redisDidNotAnswer(Model model, HttpServletResponse response, RuntimeException failure) {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        model.addAttribute("redisError", failure.getClass().getSimpleName());
    }

    /**
     * 503 with the console's error page saying so, for whatever a page or a form did not catch while Redis
     * did not answer (a download, a write): not the app's error page and an ERROR with a stack trace.
     */
    @ExceptionHandler(RedisException.class)
    public ModelAndView didNotAnswer(RedisException failure, HttpServletRequest request) {
        return unavailable("console.error.redis", failure, request);
    }

    /** The console's error page, 503, saying whose answer did not come: {@code meaning} is its message key. */
    public ModelAndView unavailable(String meaning, RuntimeException failure, HttpServletRequest request) {
        ModelAndView page = new ModelAndView("ratelimit-console/error", HttpStatus.SERVICE_UNAVAILABLE);
        page.addObject("consolePath", consolePath(request));
        page.addObject("status", HttpStatus.SERVICE_UNAVAILABLE.value());
        page.addObject("meaning", meaning);
        page.addObject("failure", failure.getClass().getSimpleName());
        return page;
    }

    @ModelAttribute("languages")
    public List<Locale> languages() {
        return ConsoleLocales.SUPPORTED;
    }
}
