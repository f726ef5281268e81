package dev.ratelimit.demo;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimit;
import java.time.Duration;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Work that runs for a while, limited by how much of it runs at once rather than by how often it starts. */
@RestController
@RequestMapping("/api")
public class ExportController {

    private static final int LONGEST_SECONDS = 10;

    /**
     * An export that takes a few seconds ({@code ?seconds=}, 3 by default, at most 10): at most 2 of one
     * user's run at once, across every instance; a third is refused until one of them ends.
     */
    @RateLimit(count = 2, algorithm = Algorithm.CONCURRENCY)
    @GetMapping("/exports/run")
    public Map<String, Object> run(@RequestParam(defaultValue = "3") int seconds) throws InterruptedException {
        int took = Math.max(0, Math.min(seconds, LONGEST_SECONDS));
        Thread.sleep(Duration.ofSeconds(took).toMillis());
        return Map.of("message", "an export that took " + took + " s");
    }
}
