package dev.ratelimit.console;

import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.ConsoleLocales;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** What every console page needs: its base path, the operator, the CSRF token and the language menu. */
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

    @ModelAttribute("languages")
    public List<Locale> languages() {
        return ConsoleLocales.SUPPORTED;
    }
}
