package dev.ratelimit.interceptor.collision.b;

import dev.ratelimit.interceptor.RateLimit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The same simple name as {@code collision.a.TwinController}, and two unannotated overloads for dyn rules. */
@RestController
public class TwinController {

    @RateLimit(count = 1, interval = 60)
    @GetMapping("/b/twin")
    public String twin() {
        return "b";
    }

    @GetMapping("/b/open")
    public String open() {
        return "b open";
    }

    @GetMapping("/b/open/named")
    public String open(@RequestParam String name) {
        return "b open " + name;
    }
}
