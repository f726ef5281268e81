package dev.ratelimit.console.access;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/** The built-in login page, present only when the console's own password login is the access policy. */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class LoginController {

    private final ObjectProvider<PasswordLogin> login;
    private final TrustedProxyResolver clients;
    private final LoginThrottle throttle;
    private final String path;

    /**
     * @param login   absent when the app declares its own {@link ConsoleAccessPolicy}: the pages then answer 404
     * @param clients the limiter's trusted-proxy rules: the throttle counts the client's address, not the proxy's
     */
    public LoginController(ObjectProvider<PasswordLogin> login, TrustedProxyResolver clients,
                           ConsoleProperties properties) {
        this.login = login;
        this.clients = clients;
        this.throttle = new LoginThrottle(Clock.systemUTC());
        this.path = properties.path();
    }

    @GetMapping("/login")
    public String form() {
        passwordLogin();
        return "ratelimit-console/login";
    }

    @PostMapping("/login")
    public String submit(@RequestParam(defaultValue = "") String username, @RequestParam(defaultValue = "") String password,
                         HttpServletRequest request, HttpServletResponse response, Model model) {
        PasswordLogin passwordLogin = passwordLogin();
        String client = clients.clientIp(request);
        Duration wait = throttle.admit(client, username);
        if (!wait.isZero()) {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            response.setStatus(429);
            response.setHeader("Retry-After", Long.toString(seconds));
            model.addAttribute("error", "console.login.wait");
            model.addAttribute("wait", seconds);
            model.addAttribute("username", username);
            return "ratelimit-console/login";
        }
        boolean signedIn = false;
        try {
            signedIn = passwordLogin.login(username, password, request, response);
        } finally {
            if (signedIn) {
                throttle.succeeded(client, username);
            } else {
                throttle.failed(client, username);
            }
        }
        if (signedIn) {
            return "redirect:" + path + "/";
        }
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        model.addAttribute("error", "console.login.failed");
        model.addAttribute("username", username);
        return "ratelimit-console/login";
    }

    @PostMapping("/logout")
    public String logout(HttpServletRequest request, HttpServletResponse response) {
        passwordLogin().logout(request, response);
        return "redirect:" + path + "/login";
    }

    private PasswordLogin passwordLogin() {
        PasswordLogin passwordLogin = login.getIfAvailable();
        if (passwordLogin == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        return passwordLogin;
    }
}
