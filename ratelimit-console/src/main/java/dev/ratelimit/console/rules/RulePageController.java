package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditController;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.blocked.BlockedController;
import dev.ratelimit.console.live.LiveTraffic;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogPageRequest;
import dev.ratelimit.console.report.LogReports;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.interceptor.rule.RuleId;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * One rule, from every place a rule is named: its traffic now (drawn by the page's script from
 * {@code live.json}), its configuration as the limiter applies it beside what the app declares, the
 * clients it blocks now, what each limit would have refused of its demand (drawn by the page's script from
 * {@code advice.json}), its top users and addresses today, its newest interceptions and the changes operators made
 * to it. A part whose source is away (no statistics, no log database, Redis or the
 * database not answering) says so; the others still show.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RulePageController {

    static final int TOP = 10;
    static final int RECENT = 20;
    static final int CHANGES = 50;
    /** The log columns of the recent interceptions: the module and rule are the page's. */
    static final List<LogColumn> COLUMNS = List.copyOf(EnumSet.complementOf(EnumSet.of(LogColumn.MODULE, LogColumn.RULE)));

    private final ConsoleRules rules;
    private final AuditTrail audit;
    private final LogClock clock;
    private final ObjectProvider<LiveTraffic> live;
    private final ObjectProvider<BlockedClients> blocked;
    private final ObjectProvider<LogReports> reports;
    private final MessageSource messages;
    private final ObjectProvider<LimitAdvisor> advisor;

    public RulePageController(ConsoleRules rules, AuditTrail audit, LogClock clock, ObjectProvider<LiveTraffic> live,
                              ObjectProvider<BlockedClients> blocked, ObjectProvider<LogReports> reports,
                              MessageSource messages, ObjectProvider<LimitAdvisor> advisor) {
        this.rules = rules;
        this.audit = audit;
        this.clock = clock;
        this.live = live;
        this.blocked = blocked;
        this.reports = reports;
        this.messages = messages;
        this.advisor = advisor;
    }

    @GetMapping("/rule")
    public String rule(@RequestParam String module, @RequestParam String rule, Model model,
                       HttpServletRequest request, HttpServletResponse response) {
        RuleId id = RuleId.of(module, rule);
        model.addAttribute("module", module);
        model.addAttribute("rule", rule);
        model.addAttribute("id", id);
        model.addAttribute("live", live.getIfAvailable() != null);
        model.addAttribute("advicePeriods", RuleAdviceController.PAGE_PERIODS);
        model.addAttribute("columns", COLUMNS);
        model.addAttribute("error", Refusal.message(request, messages));
        model.addAttribute("typed", Refusal.typed(request));
        boolean failed = configuration(id, model);
        failed |= blockedNow(id, model);
        failed |= log(id, model);
        failed |= changes(id, model);
        if (failed) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        }
        return "ratelimit-console/rule";
    }

    /** The rule as the limiter applies it, annotated or dynamic; {@code true} when Redis failed. */
    private boolean configuration(RuleId id, Model model) {
        try {
            RulesInForce inForce = rules.now();
            RuleDescription rule = inForce.rule(id).orElse(null);
            boolean annotated = rule != null && rule.source() == RuleDescription.Source.ANNOTATION;
            model.addAttribute("annotated", annotated ? RuleLines.line(rule, audit, clock, Map.of()) : null);
            model.addAttribute("dynamic", rule != null && !annotated ? rule : null);
            // Fixed windows record each client's demand (the limit advisor's); every rule, its requests per window.
            boolean fixedWindow = rule != null && Algorithm.FIXED_WINDOW.name().equals(rule.inForce().algorithm());
            boolean recorded = advisor.getIfAvailable() != null && rule != null;
            model.addAttribute("advised", recorded && fixedWindow ? rule.inForce() : null);
            model.addAttribute("windowed", recorded ? rule.inForce() : null);
            model.addAttribute("plans", rule == null ? Map.of() : rule.plans());
            model.addAttribute("exceptions", rule == null ? List.of() : rule.exceptions().entrySet().stream()
                    .map(entry -> new ExceptionLine(entry.getKey(), entry.getValue().count() + "/"
                            + entry.getValue().windowSeconds(), clock.format(entry.getValue().until())))
                    .toList());
            model.addAttribute("enabled", rule == null || rule.enabled());
            model.addAttribute("shadow", inForce.snapshot().globalMode() == RuleMode.SHADOW
                    || rule != null && rule.mode() == RuleMode.SHADOW);
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("redisError", e.getClass().getSimpleName());
            return true;
        }
    }

    private boolean blockedNow(RuleId id, Model model) {
        BlockedClients clients = blocked.getIfAvailable();
        if (clients == null) {
            return false;
        }
        try {
            model.addAttribute("blocked", clients.now(List.of(id.module()), BlockedController.SHOWN_PER_MODULE).stream()
                    .filter(client -> client.ruleId().equals(id))
                    .map(client -> new BlockedController.BlockedLine(clock.format(client.until()), client)).toList());
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("redisError", e.getClass().getSimpleName());
            return true;
        }
    }

    private boolean log(RuleId id, Model model) {
        LogReports log = reports.getIfAvailable();
        if (log == null) {
            model.addAttribute("noLog", true);
            return false;
        }
        LocalDate today = clock.today();
        LogFilter ofRule = LogFilter.ofRule(id);
        LogFilter todayOnly = ofRule.between(today.atStartOfDay(), today.plusDays(1).atStartOfDay());
        try {
            model.addAttribute("topUsers", log.topUsers(todayOnly, TOP));
            model.addAttribute("topIps", log.topIps(todayOnly, TOP));
            model.addAttribute("recent", log.detail(ofRule, LogPageRequest.newest(0, RECENT)));
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("databaseError", e.getClass().getSimpleName());
            return true;
        }
    }

    /** An operator's exception for one client, as the rule page lists it. */
    public record ExceptionLine(String identity, String limit, String until) {
    }

    /** Edits of its knobs or of its dynamic rule, and unblocks of its clients. */
    private boolean changes(RuleId id, Model model) {
        model.addAttribute("auditKept", audit.isPersistent());
        List<String> fields = new ArrayList<>();
        for (Knob knob : Knob.values()) {
            fields.add(knob.field(id));
        }
        fields.add(SysConfigFields.dyn(id));
        fields.add(SysConfigFields.dynUri(id.rule()));
        try {
            model.addAttribute("changes", audit.history(fields, BlockedController.unblockField(id.module(),
                            RedisKeys.escaped(id.rule()) + ":"), CHANGES).stream()
                    .map(entry -> new AuditController.AuditLine(clock.format(entry.at()), entry)).toList());
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("databaseError", e.getClass().getSimpleName());
            model.addAttribute("changes", List.of());
            return true;
        }
    }
}
