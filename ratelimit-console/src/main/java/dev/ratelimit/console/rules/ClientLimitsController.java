package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.function.Function;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriUtils;

/**
 * The rule page's forms for the limits of particular clients: a plan's count and window
 * ({@code <rule>.plan.<plan>}) and an exception for one identity until a time
 * ({@code <rule>.exception.<identity>}). Written by the limiter's editor, so checked as the limiter
 * reads them, and audited; a refused form comes back to the rule page with the reason and what was typed.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class ClientLimitsController {

    private final AuditedEditor editor;
    private final LogClock clock;
    private final String rulePage;

    public ClientLimitsController(AuditedEditor editor, LogClock clock, ConsoleProperties properties) {
        this.editor = editor;
        this.clock = clock;
        this.rulePage = properties.path() + "/rule";
    }

    @PostMapping("/rules/plan")
    public String savePlan(@RequestParam String module, @RequestParam String rule, @RequestParam String plan,
                           @RequestParam String limit, HttpServletRequest request) {
        return write(module, rule, edit -> edit.setPlanLimit(module + "." + rule, plan.strip(), limit.strip()), request,
                Map.of("plan", plan, "planLimit", limit));
    }

    @PostMapping("/rules/plan/delete")
    public String deletePlan(@RequestParam String module, @RequestParam String rule, @RequestParam String plan,
                             HttpServletRequest request) {
        return write(module, rule, edit -> edit.removePlanLimit(module + "." + rule, plan), request, Map.of());
    }

    /** {@code until} as the browser's date and time field sends it, in the console's zone, or an ISO instant. */
    @PostMapping("/rules/exception")
    public String saveException(@RequestParam String module, @RequestParam String rule, @RequestParam String identity,
                                @RequestParam String limit, @RequestParam String until, HttpServletRequest request) {
        return write(module, rule, edit -> edit.setException(module + "." + rule, identity.strip(), limit.strip(),
                instant(until)), request, Map.of("identity", identity, "exceptionLimit", limit, "until", until));
    }

    @PostMapping("/rules/exception/delete")
    public String deleteException(@RequestParam String module, @RequestParam String rule,
                                  @RequestParam String identity, HttpServletRequest request) {
        return write(module, rule, edit -> edit.removeException(module + "." + rule, identity), request, Map.of());
    }

    private String write(String module, String rule, Function<SysConfigEditor, SysConfigChange> edit,
                         HttpServletRequest request, Map<String, String> typed) {
        String page = rulePage + "?module=" + UriUtils.encodeQueryParam(module, StandardCharsets.UTF_8)
                + "&rule=" + UriUtils.encodeQueryParam(rule, StandardCharsets.UTF_8);
        try {
            editor.apply(Operators.of(request), edit);
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(page, e, typed);
        }
        return "redirect:" + page + "#client-limits";
    }

    private Instant instant(String until) {
        String text = until.strip();
        try {
            return text.endsWith("Z") ? Instant.parse(text)
                    : LocalDateTime.parse(text).atZone(clock.clock().getZone()).toInstant();
        } catch (DateTimeException e) {
            throw new InvalidValueException("ratelimit.config.exception", text);
        }
    }
}
