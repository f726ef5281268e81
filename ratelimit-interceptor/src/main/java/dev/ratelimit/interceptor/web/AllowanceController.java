package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.rule.RuleId;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ratelimit/allowance?rule=<module>.<rule>}: what the calling client has left of a rule, so a
 * front end can show "3 of 5 left" ({@code ratelimit.allowance-endpoint=true}). It reads the caller's own
 * counter only, as the interceptor would count it, and counts nothing. 404 for a rule that is unknown or
 * switched off, or a client the rule does not count.
 */
@RestController
public class AllowanceController {

    static final String PATH = "/ratelimit/allowance";

    private final RateLimitService service;

    public AllowanceController(RateLimitService service) {
        this.service = service;
    }

    @GetMapping(PATH)
    public ResponseEntity<Map<String, Object>> allowance(@RequestParam String rule, HttpServletRequest request) {
        RuleId id = service.ruleId(rule);
        return (id == null ? Optional.<Allowance>empty() : service.peek(id, request))
                .map(allowance -> ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body(allowance)))
                .orElseGet(() -> ResponseEntity.status(HttpStatus.NOT_FOUND).cacheControl(CacheControl.noStore())
                        .body(Map.of("rule", rule)));
    }

    /** Whole seconds rounded up, as {@code Retry-After} and the {@code RateLimit} field give them. */
    private static Map<String, Object> body(Allowance allowance) {
        return Map.of("rule", allowance.rule().toString(), "count", allowance.count(), "remaining", allowance.remaining(),
                "retryAfter", RateLimitHeaders.seconds(allowance.retryAfter().toMillis()),
                "reset", RateLimitHeaders.seconds(allowance.resetIn().toMillis()));
    }
}
