package dev.ratelimit.demo;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.ResponseCost;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Work whose cost is known only once it is done, like a language model's answer: charged by what it used. */
@RestController
@RequestMapping("/api")
public class GenerateController {

    private static final int MOST_TOKENS = 400;

    /**
     * "Generates" a text of 1 to 400 tokens, at random, and reports them: a budget of 2,000 tokens per
     * minute per user. Each request takes an estimate of 100 before it runs, settled at what it generated.
     */
    @RateLimit(count = 2000, interval = 1, unit = TimeUnit.MINUTES, algorithm = Algorithm.TOKEN_BUCKET, cost = 100,
            costFromResponse = "#reported")
    @GetMapping("/generate")
    public Map<String, Object> generate() {
        int tokens = 1 + ThreadLocalRandom.current().nextInt(MOST_TOKENS);
        ResponseCost.report(tokens);
        return Map.of("tokens", tokens, "text", "token ".repeat(tokens).strip());
    }
}
