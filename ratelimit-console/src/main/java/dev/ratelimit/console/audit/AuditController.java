package dev.ratelimit.console.audit;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.RateLimitExempt;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/** The newest changes operators made through the console. */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class AuditController {

    static final int SHOWN = 200;

    private final AuditTrail trail;
    private final LogClock clock;
    private final String notKept;

    /** @param missing what the app lacks for the log's database, when it lacks something */
    public AuditController(AuditTrail trail, LogClock clock, Optional<MissingLogDatabase> missing) {
        this.trail = trail;
        this.clock = clock;
        this.notKept = missing.map(MissingLogDatabase::auditMessageKey).orElse("console.audit.notKept");
    }

    @GetMapping("/audit")
    public String audit(Model model, HttpServletResponse response) {
        model.addAttribute("persistent", trail.isPersistent());
        model.addAttribute("notKept", notKept);
        try {
            model.addAttribute("entries", trail.recent(SHOWN).stream()
                    .map(entry -> new AuditLine(clock.format(entry.at()), entry)).toList());
        } catch (RuntimeException e) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            model.addAttribute("databaseError", e.getClass().getSimpleName());
            model.addAttribute("entries", List.of());
        }
        return "ratelimit-console/audit";
    }

    /** An entry with its time as the page shows it, in the log's zone. */
    public record AuditLine(String time, AuditEntry entry) {
    }
}
