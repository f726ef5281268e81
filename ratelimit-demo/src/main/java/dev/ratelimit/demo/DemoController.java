package dev.ratelimit.demo;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** One endpoint per dimension and per algorithm. Call them with {@code ?usercode=...} to act as a user. */
@RestController
@RequestMapping("/api")
public class DemoController {

    /** 3 requests per 10 seconds per user. */
    @RateLimit(count = 3, interval = 10)
    @GetMapping("/hello")
    public Map<String, Object> hello(@RequestParam(required = false) String usercode) {
        return reply("hello " + (usercode == null ? "anonymous (no user: not limited)" : usercode));
    }

    /** One order per 5 seconds per user: the anti-double-submit rule of the original design. */
    @RateLimit(count = 1, interval = 5, messageKey = "demo.order.rejected")
    @PostMapping("/orders")
    public Map<String, Object> order() {
        return reply("order accepted");
    }

    /** 5 requests per 10 seconds per client IP. */
    @RateLimit(count = 5, interval = 10, dimension = Dimension.IP)
    @GetMapping("/search")
    public Map<String, Object> search(@RequestParam(defaultValue = "") String q) {
        return reply("results for '" + q + "'");
    }

    /** 10 requests per minute for the endpoint as a whole, whoever calls. */
    @RateLimit(count = 10, interval = 1, unit = TimeUnit.MINUTES, dimension = Dimension.METHOD)
    @GetMapping("/report")
    public Map<String, Object> report() {
        return reply("an expensive report");
    }

    /** Shares one budget with every other GLOBAL endpoint of the app: 20 per 10 seconds. */
    @RateLimit(count = 20, interval = 10, dimension = Dimension.GLOBAL)
    @GetMapping("/export")
    public Map<String, Object> export() {
        return reply("an export");
    }

    /** Stacked: 2 per 10 s per user and 10 per 10 s per IP; either denies. */
    @RateLimit(count = 2, interval = 10)
    @RateLimit(count = 10, interval = 10, dimension = Dimension.IP)
    @GetMapping("/sms")
    public Map<String, Object> sms() {
        return reply("code sent");
    }

    /** Token bucket: a burst of 5, then one request every 2 seconds per user. */
    @RateLimit(count = 5, interval = 10, algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/burst")
    public Map<String, Object> burst() {
        return reply("a bursty call");
    }

    /** Sliding window: 5 per 10 s per user, without the fixed window's double burst at the window's edge. */
    @RateLimit(count = 5, interval = 10, algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/quote")
    public Map<String, Object> quote() {
        return reply("a price quote");
    }

    /**
     * Failed logins only: 5 wrong passwords in any 15 minutes per client IP (sliding log), while successful
     * logins ({@code password=demo}) never use the quota; a client denied is blocked for 15 minutes, twice
     * as long each time it comes back for more, up to 4 hours.
     */
    @RateLimit(count = 5, interval = 15, unit = TimeUnit.MINUTES, dimension = Dimension.IP,
            algorithm = Algorithm.SLIDING_LOG, countWhen = "#status == 401", penalty = 15, penaltyMax = 240)
    @PostMapping("/login")
    public ResponseEntity<Map<String, Object>> login(@RequestParam(defaultValue = "") String password) {
        return "demo".equals(password) ? ResponseEntity.ok(reply("signed in"))
                : ResponseEntity.status(HttpStatus.UNAUTHORIZED).body(reply("wrong password"));
    }

    /**
     * A batch weighs its items: 20 items per minute per user, whatever the batches' sizes; a batch of more
     * than 20 is refused with 400 (it could never pass).
     */
    @RateLimit(count = 20, interval = 1, unit = TimeUnit.MINUTES,
            costExpression = "#request.getParameterValues('item')?.length ?: 1")
    @PostMapping("/batch")
    public Map<String, Object> batch(@RequestParam(name = "item", defaultValue = "") List<String> items) {
        return reply(items.size() + " item(s) processed");
    }

    /** A calendar quota: 100 per month per user, back on the 1st at midnight (UTC, {@code ratelimit.quota.zone}). */
    @RateLimit(count = 100, quota = QuotaPeriod.MONTH)
    @GetMapping("/monthly")
    public Map<String, Object> monthly() {
        return reply("monthly report");
    }

    /**
     * A limit per plan: 5 per minute per user as declared, or what the config hash gives the client's plan
     * (header {@code X-Plan}, as a gateway would set it), e.g. {@code demo.DemoController.planned.plan.pro = 50/60}.
     */
    @RateLimit(count = 5, interval = 60, plan = "#headers['X-Plan']")
    @GetMapping("/planned")
    public Map<String, Object> planned() {
        return reply("planned");
    }

    /** CUSTOM: 10 per minute per tenant, whoever calls. */
    @RateLimit(count = 10, interval = 1, unit = TimeUnit.MINUTES, dimension = Dimension.CUSTOM,
            key = "#pathVariables['tenant']")
    @GetMapping("/tenants/{tenant}/data")
    public Map<String, Object> tenantData(@PathVariable String tenant) {
        return reply("data of tenant " + tenant);
    }

    /** No annotation: limit it at run time with {@code dyn.demo.DemoController.open} or a {@code dynuri.*} rule. */
    @GetMapping("/open")
    public Map<String, Object> open() {
        return reply("open endpoint");
    }

    private static Map<String, Object> reply(String message) {
        return Map.of("successful", 1, "message", message, "at", Instant.now().toString());
    }
}
