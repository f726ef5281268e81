package dev.ratelimit.console.live;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.rule.RuleId;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The overview's live data, polled by its script every few seconds. */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class LiveController {

    private final LiveTraffic traffic;

    public LiveController(LiveTraffic traffic) {
        this.traffic = traffic;
    }

    /**
     * Every module's traffic, or with {@code module} and {@code rule} one rule's (the rule page's), over
     * {@code span} ({@link LiveSpan}: {@code 1h} unless another is named).
     */
    @GetMapping("/live.json")
    public ResponseEntity<LiveView> live(@RequestParam(required = false) String module,
                                         @RequestParam(required = false) String rule,
                                         @RequestParam(required = false) String span) {
        LiveSpan over = LiveSpan.of(span);
        LiveView view = module == null || rule == null ? traffic.now(over) : traffic.rule(over, RuleId.of(module, rule));
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(view);
    }
}
