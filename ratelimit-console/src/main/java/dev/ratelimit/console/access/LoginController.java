package dev.ratelimit.console.access;

import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.interceptor.RateLimitExempt;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The built-in login page, present only when the console's own password login is the access policy. */
@Controller
@RateLimitExempt
@RequestMapping("${ratelimit.console.path:/ratelimit-console}")
public class LoginController {

    private final PasswordLogin login;
    private final LoginThrottle throttle;
    private final String path;

    public LoginController(PasswordLogin login, LoginThrottle throttle, ConsoleProperties properties) {
        this.login = login;
        this.throttle = throttle;
        this.path = properties.path();
    }

    @GetMapping("/login")
    public String form() {
        return "ratelimit-console/login";
    }

    @PostMapping("/login")
    public String submit(@RequestParam(defaultValue = "") String username, @RequestParam(defaultValue = "") String password,
                         HttpServletRequest request, HttpServletResponse response, Model model) {
        String client = request.getRemoteAddr();
        if (throttle.isLocked(client)) {
            response.setStatus(429);
            model.addAttribute("error", "console.login.locked");
            return "ratelimit-console/login";
        }
        if (login.login(username, password, request, response)) {
            throttle.succeeded(client);
            return "redirect:" + path + "/";
        }
        throttle.failed(client);
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        model.addAttribute("error", "console.login.failed");
        model.addAttribute("username", username);
        return "ratelimit-console/login";
    }

    @PostMapping("/logout")
    public String logout(HttpServletRequest request, HttpServletResponse response) {
        login.logout(request, response);
        return "redirect:" + path + "/login";
    }
}
