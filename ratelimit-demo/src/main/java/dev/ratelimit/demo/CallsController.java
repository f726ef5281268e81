package dev.ratelimit.demo;

import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitRule;
import dev.ratelimit.interceptor.RateLimitService;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Limits outside HTTP, seen from HTTP: endpoints without a limit of their own that make limited calls, a
 * bean method ({@link ExchangeRates}) and a call counted from code ({@link PartnerLimits}). A refused call
 * is answered 429 with the wait it was told.
 */
@RestController
@RequestMapping("/api")
public class CallsController {

    private final ExchangeRates rates;
    private final RateLimitService limits;
    private final RateLimitRule partnerWebhooks;

    public CallsController(ExchangeRates rates, RateLimitService limits, RateLimitRule partnerWebhooks) {
        this.rates = rates;
        this.limits = limits;
        this.partnerWebhooks = partnerWebhooks;
    }

    /** Each call of the provider counts; beyond its budget a call waits up to 3 s. */
    @GetMapping("/rates")
    public Map<String, Object> rates(@RequestParam(defaultValue = "EUR") String currency) {
        return rates.fetch(currency);
    }

    /** A partner's webhook: 3 per minute per partner, counted from code. */
    @PostMapping("/webhooks/{partner}")
    public Map<String, Object> webhook(@PathVariable String partner) {
        limits.acquire(partnerWebhooks, partner, Duration.ZERO);
        return Map.of("successful", 1, "message", "webhook of " + partner + " accepted", "at", Instant.now().toString());
    }

    @ExceptionHandler(RateLimitExceededException.class)
    ResponseEntity<Map<String, Object>> refused(RateLimitExceededException refused) {
        long seconds = (refused.retryAfter().toMillis() + 999) / 1000;
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", Long.toString(seconds))
                .body(Map.of("successful", 0, "ratelimit", 1, "rule", refused.rule().toString(), "retryAfter", seconds));
    }
}
