package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.advice.LimitAdvice;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.interceptor.advice.RequestWindows;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The rule page's "choosing a limit": what each limit would have refused of the demand the rule saw over the last
 * hour, day or week ({@link LimitAdvisor}), and every rule's requests per window, polled by the page's script.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RuleAdviceController {

    /** The periods the page offers, in its order. */
    public static final List<String> PAGE_PERIODS = List.of("PT1H", "P1D", "P7D");

    private final ObjectProvider<LimitAdvisor> advisor;
    private final Clock clock = Clock.systemUTC();

    /** The advisor is there with the live statistics; an app whose component scan reaches here may have none. */
    public RuleAdviceController(ObjectProvider<LimitAdvisor> advisor) {
        this.advisor = advisor;
    }

    /**
     * The advice for {@code limit} (the limit in force, as the page sends it) over {@code since}; 400 for a period
     * the page does not offer, 404 without live statistics. Redis not answering is the console's notice, as for
     * every page.
     */
    @GetMapping("/advice.json")
    public ResponseEntity<?> advice(@RequestParam String module, @RequestParam String rule,
                                    @RequestParam(defaultValue = "PT1H") String since,
                                    @RequestParam(defaultValue = "1") long limit) {
        if (!PAGE_PERIODS.contains(since) || limit < 1) {
            return ResponseEntity.badRequest().body(Map.of("error", "since is one of " + PAGE_PERIODS
                    + " and limit at least 1"));
        }
        LimitAdvisor available = advisor.getIfAvailable();
        if (available == null) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", "no live statistics"));
        }
        LimitAdvice advice = available.advise(RuleId.of(module, rule), limit, Duration.parse(since), clock.instant());
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(advice);
    }

    /**
     * The requests of a rule, whatever its algorithm, per window of its length over {@code since}
     * ({@link LimitAdvisor#windows}); 400 and 404 as {@link #advice}.
     */
    @GetMapping("/windows.json")
    public ResponseEntity<?> windows(@RequestParam String module, @RequestParam String rule,
                                     @RequestParam(defaultValue = "PT1H") String since) {
        if (!PAGE_PERIODS.contains(since)) {
            return ResponseEntity.badRequest().body(Map.of("error", "since is one of " + PAGE_PERIODS));
        }
        LimitAdvisor available = advisor.getIfAvailable();
        if (available == null) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", "no live statistics"));
        }
        RequestWindows windows = available.windows(RuleId.of(module, rule), Duration.parse(since), clock.instant());
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(windows);
    }
}
