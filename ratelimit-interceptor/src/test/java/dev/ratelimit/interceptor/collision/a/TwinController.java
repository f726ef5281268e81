package dev.ratelimit.interceptor.collision.a;

import dev.ratelimit.interceptor.RateLimit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Two overloads with the same limit: each must count on its own. */
@RestController
public class TwinController {

    @RateLimit(count = 1, interval = 60)
    @GetMapping("/a/twin")
    public String twin() {
        return "a";
    }

    @RateLimit(count = 1, interval = 60)
    @GetMapping("/a/twin/named")
    public String twin(@RequestParam String name) {
        return "a " + name;
    }
}
