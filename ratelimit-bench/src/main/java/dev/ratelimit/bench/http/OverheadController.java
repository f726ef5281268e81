package dev.ratelimit.bench.http;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Endpoints that do the same trivial work and differ only in their limit, or in one Redis call of their own. */
@RestController
class OverheadController {

    private static final String BODY = "{\"ok\":true}";

    private final StringRedisTemplate redis;

    OverheadController(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** No rule: the interceptor looks it up and lets it pass. */
    @GetMapping("/plain")
    String plain() {
        return BODY;
    }

    /**
     * A rule that always admits: one Redis decision per request, or, once it is busier than
     * {@code ratelimit.hot-keys.threshold} (as under wrk), permits taken in batches.
     */
    @RateLimit(count = 1_000_000_000L, interval = 1, dimension = Dimension.METHOD)
    @GetMapping("/allowed")
    String allowed() {
        return BODY;
    }

    /**
     * A GLOBAL limit that always admits (10⁹ an hour): one counter for every caller of every GLOBAL limit of the
     * app, the hot key of issue 25, which the starter decides from permits taken in batches once it is busy.
     */
    @RateLimit(count = 1_000_000_000L, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.GLOBAL)
    @GetMapping("/global")
    String global() {
        return BODY;
    }

    /**
     * As {@code /allowed}, with the client's plan resolved by an expression on the request and looked up
     * in the config hash ({@code plan=pro}, which the bench gives its own count): what a plan costs a
     * request in the app, since the store is asked exactly as for {@code /allowed}.
     */
    @RateLimit(count = 1_000_000_000L, interval = 1, dimension = Dimension.METHOD,
            plan = "#request.getParameter('plan')")
    @GetMapping("/planned")
    String planned() {
        return BODY;
    }

    /**
     * No rule, but one {@code INCR} of the app's own per request: what any single Redis round trip costs
     * a request on this machine, to compare the limited endpoints with.
     */
    @GetMapping("/redis-call")
    String redisCall() {
        redis.opsForValue().increment("bench:calls");
        return BODY;
    }

    /** A rule that admits 100 an hour: after the first hundred, every request is rejected with a 429. */
    @RateLimit(count = 100, interval = 1, unit = TimeUnit.HOURS, dimension = Dimension.METHOD)
    @GetMapping("/rejected")
    String rejected() {
        return BODY;
    }
}
