package dev.ratelimit.console.rules;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriUtils;

/**
 * The annotated rules of every module, with their switch, count and window editable in place, what
 * is in force beside what the app declares, and a reset to the declaration. Every value is read by the
 * limiter's parser and written by its editor; a refused form comes back (post/redirect/get) with the
 * reason in the operator's language and what they typed.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RulesController {

    private final ApiIndexRepository index;
    private final SysConfigRepository config;
    private final AuditedEditor editor;
    private final AuditTrail audit;
    private final LogClock clock;
    private final MessageSource messages;
    private final String page;

    public RulesController(ApiIndexRepository index, SysConfigRepository config, AuditedEditor editor, AuditTrail audit,
                           LogClock clock, MessageSource messages, ConsoleProperties properties) {
        this.index = index;
        this.config = config;
        this.editor = editor;
        this.audit = audit;
        this.clock = clock;
        this.messages = messages;
        this.page = properties.path() + "/rules";
    }

    @GetMapping("/rules")
    public String rules(HttpServletRequest request, Model model) {
        Map<String, String> hash = config.readAll();
        RuleSnapshot snapshot = RuleTable.snapshot(hash);
        Map<String, String> typed = Refusal.typed(request);
        model.addAttribute("globalOn", snapshot.globalCheck());
        model.addAttribute("logOn", snapshot.logCheck());
        model.addAttribute("globalShadow", snapshot.globalMode() == RuleMode.SHADOW);
        model.addAttribute("whitelistIps", typed.getOrDefault("ips", hash.getOrDefault(SysConfigFields.WHITELIST_IPS, "")));
        model.addAttribute("whitelistUsers",
                typed.getOrDefault("users", hash.getOrDefault(SysConfigFields.WHITELIST_USERS, "")));
        model.addAttribute("ignored", snapshot.ignored());
        model.addAttribute("modules", RuleTable.build(index, hash, audit, clock, typed));
        model.addAttribute("error", Refusal.message(request, messages));
        return "ratelimit-console/rules";
    }

    @PostMapping("/rules/switches")
    public String switches(@RequestParam(defaultValue = "false") boolean global,
                           @RequestParam(defaultValue = "false") boolean log,
                           @RequestParam(defaultValue = "false") boolean shadow, HttpServletRequest request) {
        String operator = Operators.of(request);
        editor.apply(operator, edit -> edit.setGlobalSwitch(global));
        editor.apply(operator, edit -> edit.setLogSwitch(log));
        if (shadow != (RuleTable.snapshot(config.readAll()).globalMode() == RuleMode.SHADOW)) {
            editor.apply(operator, edit -> edit.setGlobalMode(shadow ? RuleMode.SHADOW : RuleMode.ENFORCE));
        }
        return "redirect:" + page + "?saved";
    }

    /** Clients never limited; a list with an entry that does not parse is refused whole. */
    @PostMapping("/rules/whitelist")
    public String whitelist(@RequestParam(defaultValue = "") String ips, @RequestParam(defaultValue = "") String users,
                            HttpServletRequest request) {
        String operator = Operators.of(request);
        try {
            editor.apply(operator, edit -> edit.setWhitelistIps(ips));
            editor.apply(operator, edit -> edit.setWhitelistUsers(users));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(page, e, Map.of("ips", ips, "users", users));
        }
        return "redirect:" + page + "?saved";
    }

    /** Saves one rule: count and window checked together first, so a refused form changes nothing. */
    @PostMapping("/rules/rule")
    public String rule(@RequestParam String id, @RequestParam(defaultValue = "false") boolean enabled,
                       @RequestParam(defaultValue = "false") boolean shadow, @RequestParam String count,
                       @RequestParam String interval, HttpServletRequest request) {
        String operator = Operators.of(request);
        try {
            declared(id);
            editor.applyAll(operator, edit -> edit.setRuleLimit(id, count, interval));
            editor.apply(operator, edit -> edit.setRuleSwitch(id, enabled));
            if (shadow != RuleTable.snapshot(config.readAll()).shadowRules().contains(id)) {
                editor.apply(operator, edit -> edit.setRuleMode(id, shadow ? RuleMode.SHADOW : RuleMode.ENFORCE));
            }
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(page, e, Map.of("id", id, "count", count, "interval", interval));
        }
        return "redirect:" + page + "?saved=" + UriUtils.encodeQueryParam(id, StandardCharsets.UTF_8);
    }

    /** Every knob of a rule back to what the app declares; later deploys change it again. */
    @PostMapping("/rules/reset")
    public String reset(@RequestParam String id, HttpServletRequest request) {
        try {
            declared(id);
            editor.applyAll(Operators.of(request), edit -> edit.resetToDeclared(id));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(page, e, Map.of());
        }
        return "redirect:" + page + "?saved=" + UriUtils.encodeQueryParam(id, StandardCharsets.UTF_8);
    }

    /** Only a rule some module declares can be edited here: fields of any other would apply to nothing. */
    private void declared(String id) {
        boolean known = index.modules().stream().flatMap(module -> index.entries(module).values().stream())
                .flatMap(entry -> entry.limits().stream()).anyMatch(limit -> limit.rule().equals(id));
        if (!known) {
            throw new InvalidValueException("ratelimit.config.unknownRule", id);
        }
    }
}
