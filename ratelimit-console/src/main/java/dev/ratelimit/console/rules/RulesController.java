package dev.ratelimit.console.rules;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriUtils;

/** The annotated rules of every module, with their switch, count and window editable in place. */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RulesController {

    private final ApiIndexRepository index;
    private final SysConfigRepository config;
    private final AuditedEditor editor;
    private final String page;

    public RulesController(ApiIndexRepository index, SysConfigRepository config, AuditedEditor editor,
                           ConsoleProperties properties) {
        this.index = index;
        this.config = config;
        this.editor = editor;
        this.page = "redirect:" + properties.path() + "/rules";
    }

    @GetMapping("/rules")
    public String rules(Model model) {
        Map<String, String> hash = config.readAll();
        model.addAttribute("globalOn", RuleTable.enabled(hash.get(SysConfigFields.GLOBAL_CHECK)));
        model.addAttribute("logOn", RuleTable.enabled(hash.get(SysConfigFields.LOG_CHECK)));
        model.addAttribute("globalShadow", RuleTable.shadow(hash.get(SysConfigFields.GLOBAL_MODE)));
        model.addAttribute("whitelistIps", hash.getOrDefault(SysConfigFields.WHITELIST_IPS, ""));
        model.addAttribute("whitelistUsers", hash.getOrDefault(SysConfigFields.WHITELIST_USERS, ""));
        model.addAttribute("modules", RuleTable.build(index, hash));
        return "ratelimit-console/rules";
    }

    @PostMapping("/rules/switches")
    public String switches(@RequestParam(defaultValue = "false") boolean global,
                           @RequestParam(defaultValue = "false") boolean log,
                           @RequestParam(defaultValue = "false") boolean shadow, HttpServletRequest request) {
        String operator = Operators.of(request);
        editor.apply(operator, edit -> edit.setGlobalSwitch(global));
        editor.apply(operator, edit -> edit.setLogSwitch(log));
        if (shadow != RuleTable.shadow(config.readAll().get(SysConfigFields.GLOBAL_MODE))) {
            editor.apply(operator, edit -> edit.setGlobalMode(shadow ? RuleMode.SHADOW : RuleMode.ENFORCE));
        }
        return page + "?saved";
    }

    /** Clients never limited; a list with an entry that does not parse is refused whole. */
    @PostMapping("/rules/whitelist")
    public String whitelist(@RequestParam(defaultValue = "") String ips, @RequestParam(defaultValue = "") String users,
                            HttpServletRequest request, HttpServletResponse response, Model model) {
        String operator = Operators.of(request);
        try {
            editor.apply(operator, edit -> edit.setWhitelistIps(ips));
            editor.apply(operator, edit -> edit.setWhitelistUsers(users));
        } catch (IllegalArgumentException e) {
            return refused(e.getMessage(), response, model);
        }
        return page + "?saved";
    }

    /** Saves one rule; a refused value re-renders the page with the reason and changes nothing. */
    @PostMapping("/rules/rule")
    public String rule(@RequestParam String id, @RequestParam(defaultValue = "false") boolean enabled,
                       @RequestParam(defaultValue = "false") boolean shadow, @RequestParam String count, @RequestParam String interval, HttpServletRequest request,
                       HttpServletResponse response, Model model) {
        String operator = Operators.of(request);
        try {
            checkPositive("count", count);
            checkPositive("interval", interval);
            editor.apply(operator, edit -> edit.setRuleCount(id, count));
            editor.apply(operator, edit -> edit.setRuleInterval(id, interval));
            editor.apply(operator, edit -> edit.setRuleSwitch(id, enabled));
            if (shadow != RuleTable.shadow(config.readAll().get(id + SysConfigFields.MODE_SUFFIX))) {
                editor.apply(operator, edit -> edit.setRuleMode(id, shadow ? RuleMode.SHADOW : RuleMode.ENFORCE));
            }
        } catch (IllegalArgumentException e) {
            return refused(id + ": " + e.getMessage(), response, model);
        }
        return page + "?saved=" + UriUtils.encodeQueryParam(id, StandardCharsets.UTF_8);
    }

    /** The page again with the reason a value was refused; nothing was written. */
    private String refused(String reason, HttpServletResponse response, Model model) {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        model.addAttribute("error", reason);
        return rules(model);
    }

    /** Both numbers are checked before either is written, so a rejected form changes nothing. */
    private static void checkPositive(String name, String value) {
        try {
            SysConfigParser.parsePositive(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage() + ", got '" + value + "'");
        }
    }
}
