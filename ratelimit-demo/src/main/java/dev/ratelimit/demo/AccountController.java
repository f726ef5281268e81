package dev.ratelimit.demo;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * No limit at all: only the deny list refuses a client here. Deny one with
 * {@code redis-cli -p <port> HSET ratelimit:sysconfig deny.user.mallory forever} (then
 * {@code PUBLISH ratelimit:config-changed deny.user.mallory}), or on the console's Deny list page.
 */
@RestController
public class AccountController {

    @GetMapping("/api/account")
    public Map<String, Object> account(@RequestParam(name = "usercode", required = false) String user) {
        return Map.of("successful", 1, "user", user == null ? "anonymous" : user);
    }
}
