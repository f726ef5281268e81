package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsoleModel;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.rule.RuleId;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The annotated rules of every module, with their switch, count and window editable in place, what
 * is in force beside what the app declares, and a reset to the declaration. Every value is read through
 * the limiter's {@link RulesInForce} and written by its editor; a refused form comes back
 * (post/redirect/get) with the reason in the operator's language and what they typed.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RulesController {

    /** The parameter of the import's redirect ({@link RulesDocumentController}). */

    private final ConsoleRules rules;
    private final AuditedEditor editor;
    private final AuditTrail audit;
    private final LogClock clock;
    private final MessageSource messages;
    private final String page;

    public RulesController(ConsoleRules rules, AuditedEditor editor, AuditTrail audit, LogClock clock,
                           MessageSource messages, ConsoleProperties properties) {
        this.rules = rules;
        this.editor = editor;
        this.audit = audit;
        this.clock = clock;
        this.messages = messages;
        this.page = properties.path() + "/rules";
    }

    @GetMapping("/rules")
    public String rules(HttpServletRequest request, HttpServletResponse response, Model model) {
        model.addAttribute("error", Refusal.message(request, messages));
        model.addAttribute("imported", PageNotes.of(request).first(PageNotes.IMPORTED));
        RulesInForce inForce;
        try {
            inForce = rules.now();
        } catch (RuntimeException e) {
            ConsoleModel.redisDidNotAnswer(model, response, e);
            return "ratelimit-console/rules";
        }
        RuleSnapshot snapshot = inForce.snapshot();
        Map<String, String> typed = Refusal.typed(request);
        model.addAttribute("globalOn", snapshot.globalCheck());
        model.addAttribute("logOn", snapshot.logCheck());
        model.addAttribute("globalShadow", snapshot.globalMode() == RuleMode.SHADOW);
        // as written, entries the limiter ignores included: the operator sees what to correct
        model.addAttribute("whitelistIps", typed.getOrDefault("ips",
                snapshot.fields().getOrDefault(SysConfigFields.WHITELIST_IPS, "")));
        model.addAttribute("whitelistUsers", typed.getOrDefault("users",
                snapshot.fields().getOrDefault(SysConfigFields.WHITELIST_USERS, "")));
        model.addAttribute("ignored", snapshot.ignored());
        model.addAttribute("modules", RuleLines.of(inForce, audit, clock, typed));
        return "ratelimit-console/rules";
    }

    @PostMapping("/rules/switches")
    public String switches(@RequestParam(defaultValue = "false") boolean global,
                           @RequestParam(defaultValue = "false") boolean log,
                           @RequestParam(defaultValue = "false") boolean shadow, HttpServletRequest request) {
        editor.applyAll(Operators.of(request), edit -> edit.edit().globalSwitch(global).logSwitch(log)
                .globalMode(shadow ? RuleMode.SHADOW : RuleMode.ENFORCE).apply());
        return PageNotes.of(request).redirect(page, PageNotes.SAVED, "");
    }

    /** Clients never limited; a list with an entry that does not parse is refused whole, and nothing is written. */
    @PostMapping("/rules/whitelist")
    public String whitelist(@RequestParam(defaultValue = "") String ips, @RequestParam(defaultValue = "") String users,
                            HttpServletRequest request) {
        try {
            editor.applyAll(Operators.of(request), edit -> edit.edit().whitelistIps(ips).whitelistUsers(users).apply());
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, Map.of("ips", ips, "users", users));
        }
        return PageNotes.of(request).redirect(page, PageNotes.SAVED, "");
    }

    /** Saves one rule in one atomic write: count and window checked together first, so a refused form changes nothing. */
    @PostMapping("/rules/rule")
    public String rule(@RequestParam String module, @RequestParam String rule,
                       @RequestParam(defaultValue = "false") boolean enabled,
                       @RequestParam(defaultValue = "false") boolean shadow, @RequestParam String count,
                       @RequestParam String interval, HttpServletRequest request) {
        RuleId id = RuleId.of(module, rule);
        try {
            declared(id);
            editor.applyAll(Operators.of(request), edit -> edit.edit().knobs(id, Map.of(Knob.COUNT, count, Knob.WINDOW, interval))
                    .ruleSwitch(id, enabled).ruleMode(id, shadow ? RuleMode.SHADOW : RuleMode.ENFORCE).apply());
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, Map.of("module", module, "rule", rule, "count", count,
                    "interval", interval));
        }
        return PageNotes.of(request).redirect(page, PageNotes.SAVED, id);
    }

    /** Every knob of a rule back to what the app declares; later deploys change it again. */
    @PostMapping("/rules/reset")
    public String reset(@RequestParam String module, @RequestParam String rule, HttpServletRequest request) {
        RuleId id = RuleId.of(module, rule);
        try {
            declared(id);
            editor.applyAll(Operators.of(request), edit -> edit.resetToDeclared(id));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, Map.of());
        }
        return PageNotes.of(request).redirect(page, PageNotes.SAVED, id);
    }

    /** Only a rule some module declares can be edited here: fields of any other would apply to nothing. */
    private void declared(RuleId id) {
        if (rules.now().rule(id).filter(rule -> rule.source() == RuleDescription.Source.ANNOTATION).isEmpty()) {
            throw new InvalidValueException("ratelimit.config.unknownRule", id);
        }
    }
}
