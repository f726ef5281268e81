package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.rule.RuleId;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiFunction;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriUtils;

/**
 * The rule page's forms for what an operator sets of an annotated rule beyond what the rules list edits:
 * its other knobs (the penalty, {@code <rule>.penalty}), a plan's count and window ({@code <rule>.plan.<plan>}) and an exception
 * for one identity until a time ({@code <rule>.exception.<identity>}). Written by the limiter's editor, so
 * checked as the limiter reads them, and audited; a refused form comes back to the rule page with the
 * reason and what was typed.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RuleFormsController {

    private static final String RULE_CONFIG = "#rule-config";
    private static final String CLIENT_LIMITS = "#client-limits";
    private static final String ADVICE = "#rule-advice";

    private final AuditedEditor editor;
    private final LogClock clock;
    private final String rulePage;

    public RuleFormsController(AuditedEditor editor, LogClock clock, ConsoleProperties properties) {
        this.editor = editor;
        this.clock = clock;
        this.rulePage = properties.path() + "/rule";
    }

    /**
     * One knob the rules list does not edit (the penalty, and any a later version adds), as its form on the
     * rule page sends it; a blank value gives the rule its declared one back.
     */
    @PostMapping("/rules/knob")
    public String saveKnob(@RequestParam String module, @RequestParam String rule, @RequestParam String knob,
                           @RequestParam(defaultValue = "") String value, HttpServletRequest request) {
        Knob chosen = Knob.ofKey(knob);
        return write(module, rule, RULE_CONFIG, (edit, id) -> {
            if (chosen == null || RuleLine.LISTED.contains(chosen)) {
                throw new InvalidValueException("ratelimit.document.notHere", knob, RuleLine.PAGE_KNOBS);
            }
            SysConfigEditor.Edit change = value.isBlank() ? edit.edit().removeKnob(id, chosen)
                    : edit.edit().knob(id, chosen, value.strip());
            return change.apply().get(0);
        }, request, Map.of("knob." + knob, value));
    }

    /**
     * The limit the page's advice suggests, as its "apply" sends it: the count alone, the window kept; of an
     * annotated rule ({@code <rule>.count}) or a {@code dyn} rule (its other parts kept).
     */
    @PostMapping("/rules/advice")
    public String applyAdvice(@RequestParam String module, @RequestParam String rule, @RequestParam String count,
                              HttpServletRequest request) {
        return write(module, rule, ADVICE, (edit, id) -> edit.edit().ruleCount(id, count.strip()).apply().get(0), request,
                Map.of("adviceCount", count));
    }

    @PostMapping("/rules/plan")
    public String savePlan(@RequestParam String module, @RequestParam String rule, @RequestParam String plan,
                           @RequestParam String limit, HttpServletRequest request) {
        return write(module, rule, CLIENT_LIMITS, (edit, id) -> edit.setPlanLimit(id, plan.strip(), limit.strip()),
                request, Map.of("plan", plan, "planLimit", limit));
    }

    @PostMapping("/rules/plan/delete")
    public String deletePlan(@RequestParam String module, @RequestParam String rule, @RequestParam String plan,
                             HttpServletRequest request) {
        return write(module, rule, CLIENT_LIMITS, (edit, id) -> edit.removePlanLimit(id, plan), request, Map.of());
    }

    /** {@code until} as the browser's date and time field sends it, in the console's zone, or an ISO instant. */
    @PostMapping("/rules/exception")
    public String saveException(@RequestParam String module, @RequestParam String rule, @RequestParam String identity,
                                @RequestParam String limit, @RequestParam String until, HttpServletRequest request) {
        return write(module, rule, CLIENT_LIMITS, (edit, id) -> edit.setException(id, identity.strip(), limit.strip(),
                instant(until)), request, Map.of("identity", identity, "exceptionLimit", limit, "until", until));
    }

    @PostMapping("/rules/exception/delete")
    public String deleteException(@RequestParam String module, @RequestParam String rule,
                                  @RequestParam String identity, HttpServletRequest request) {
        return write(module, rule, CLIENT_LIMITS, (edit, id) -> edit.removeException(id, identity), request, Map.of());
    }

    /** Applies {@code edit} to the rule {@code <module>.<rule>} and goes back to the rule page at {@code anchor}. */
    private String write(String module, String rule, String anchor,
                         BiFunction<SysConfigEditor, RuleId, SysConfigChange> edit, HttpServletRequest request,
                         Map<String, String> typed) {
        String page = rulePage + "?module=" + UriUtils.encodeQueryParam(module, StandardCharsets.UTF_8)
                + "&rule=" + UriUtils.encodeQueryParam(rule, StandardCharsets.UTF_8);
        try {
            editor.apply(Operators.of(request), configEditor -> edit.apply(configEditor, RuleId.of(module, rule)));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, typed);
        }
        return "redirect:" + page + anchor;
    }

    private Instant instant(String until) {
        try {
            return clock.parse(until);
        } catch (DateTimeException e) {
            throw new InvalidValueException("ratelimit.config.exception", until.strip());
        }
    }
}
