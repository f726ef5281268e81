package dev.ratelimit.secured;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import java.security.Principal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Endpoints for signed-in users, limited per user and per client address, and one open to everybody. */
@RestController
public class AccountController {

    static final int PER_USER = 3;
    static final int PER_ADDRESS = 5;

    @RateLimit(count = PER_USER, interval = 60)
    @GetMapping("/account")
    public String account(Principal principal) {
        return principal.getName();
    }

    @RateLimit(count = PER_ADDRESS, interval = 60, dimension = Dimension.IP)
    @GetMapping("/orders")
    public String orders(Principal principal) {
        return principal.getName();
    }

    @RateLimit(count = PER_ADDRESS, interval = 60, dimension = Dimension.IP)
    @GetMapping("/public/prices")
    public String prices() {
        return "prices";
    }
}
