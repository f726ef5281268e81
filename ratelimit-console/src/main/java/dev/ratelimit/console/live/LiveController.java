package dev.ratelimit.console.live;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.interceptor.RateLimitExempt;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/** The overview's live data, polled by its script every few seconds. */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class LiveController {

    private final LiveTraffic traffic;

    public LiveController(LiveTraffic traffic) {
        this.traffic = traffic;
    }

    @GetMapping("/live.json")
    public ResponseEntity<LiveView> live() {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(traffic.now());
    }
}
