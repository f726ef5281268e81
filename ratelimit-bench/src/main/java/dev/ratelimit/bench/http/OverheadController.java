package dev.ratelimit.bench.http;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import java.util.concurrent.TimeUnit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Three endpoints that do the same trivial work and differ only in their limit. */
@RestController
class OverheadController {

    private static final String BODY = "{\"ok\":true}";

    /** No rule: the interceptor looks it up and lets it pass. */
    @GetMapping("/plain")
    String plain() {
        return BODY;
    }

    /** A rule that always admits: one Redis decision per request. */
    @RateLimit(count = 1_000_000_000L, interval = 1, dimension = Dimension.METHOD)
    @GetMapping("/allowed")
    String allowed() {
        return BODY;
    }

    /** A rule that admits 100 an hour: after the first hundred, every request is rejected with a 429. */
    @RateLimit(count = 100, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.METHOD)
    @GetMapping("/rejected")
    String rejected() {
        return BODY;
    }
}
