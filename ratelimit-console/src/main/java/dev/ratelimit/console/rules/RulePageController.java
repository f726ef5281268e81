package dev.ratelimit.console.rules;

import static dev.ratelimit.interceptor.config.SysConfigFields.BLOCK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditController;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.blocked.BlockedController;
import dev.ratelimit.console.live.LiveTraffic;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.log.report.LogFilter;
import dev.ratelimit.interceptor.log.report.LogPageRequest;
import dev.ratelimit.interceptor.log.report.LogReports;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * clients it blocks now, its top users and addresses today, its newest interceptions and the changes
 * operators made to it. A part whose source is away (no statistics, no log database, Redis or the
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

    private final ApiIndexRepository index;
    private final SysConfigRepository config;
    private final AuditTrail audit;
    private final LogClock clock;
    private final ObjectProvider<LiveTraffic> live;
    private final ObjectProvider<BlockedClients> blocked;
    private final ObjectProvider<LogReports> reports;
    private final MessageSource messages;

    public RulePageController(ApiIndexRepository index, SysConfigRepository config, AuditTrail audit, LogClock clock,
                              ObjectProvider<LiveTraffic> live, ObjectProvider<BlockedClients> blocked,
                              ObjectProvider<LogReports> reports, MessageSource messages) {
        this.index = index;
        this.config = config;
        this.audit = audit;
        this.clock = clock;
        this.live = live;
        this.blocked = blocked;
        this.reports = reports;
        this.messages = messages;
    }

    @GetMapping("/rule")
    public String rule(@RequestParam String module, @RequestParam String rule, Model model,
                       HttpServletRequest request, HttpServletResponse response) {
        String id = module + "." + rule;
        model.addAttribute("module", module);
        model.addAttribute("rule", rule);
        model.addAttribute("id", id);
        model.addAttribute("live", live.getIfAvailable() != null);
        model.addAttribute("columns", COLUMNS);
        model.addAttribute("error", Refusal.message(request, messages));
        model.addAttribute("typed", Refusal.typed(request));
        boolean failed = configuration(module, rule, id, model);
        failed |= blockedNow(module, rule, model);
        failed |= log(module, rule, model);
        failed |= changes(module, rule, id, model);
        if (failed) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        }
        return "ratelimit-console/rule";
    }

    /** The annotated rule as the rules page shows it, or the dynamic rule's value; {@code true} when Redis failed. */
    private boolean configuration(String module, String rule, String id, Model model) {
        try {
            Map<String, String> hash = config.readAll();
            RuleSnapshot snapshot = RuleTable.snapshot(hash);
            model.addAttribute("annotated", RuleTable.find(index, module, id, hash, snapshot, audit, clock));
            model.addAttribute("plans", new TreeMap<>(snapshot.plans().getOrDefault(id, Map.of())));
            model.addAttribute("exceptions", snapshot.exceptions().getOrDefault(id, Map.of()).entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .map(entry -> new ExceptionLine(entry.getKey(), entry.getValue().count() + "/"
                            + entry.getValue().intervalSeconds(), clock.format(entry.getValue().until())))
                    .toList());
            model.addAttribute("dynamic", hash.get(DYN_PREFIX + id));
            model.addAttribute("dynamicUri", hash.get(DYNURI_PREFIX + rule));
            model.addAttribute("enabled", snapshot.override(id).enabled());
            model.addAttribute("shadow", snapshot.shadow(id));
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("redisError", e.getClass().getSimpleName());
            return true;
        }
    }

    private boolean blockedNow(String module, String rule, Model model) {
        BlockedClients clients = blocked.getIfAvailable();
        if (clients == null) {
            return false;
        }
        try {
            model.addAttribute("blocked", clients.now(List.of(module), BlockedController.SHOWN_PER_MODULE).stream()
                    .filter(client -> client.rule().equals(rule))
                    .map(client -> new BlockedController.BlockedLine(clock.format(client.until()), client)).toList());
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("redisError", e.getClass().getSimpleName());
            return true;
        }
    }

    private boolean log(String module, String rule, Model model) {
        LogReports log = reports.getIfAvailable();
        if (log == null) {
            model.addAttribute("noLog", true);
            return false;
        }
        LocalDate today = clock.today();
        LogFilter ofRule = LogFilter.ofRule(module, rule);
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
    private boolean changes(String module, String rule, String id, Model model) {
        model.addAttribute("auditKept", audit.isPersistent());
        List<String> fields = List.of(id + CHECK_SUFFIX, id + COUNT_SUFFIX, id + INTERVAL_SUFFIX, id + MODE_SUFFIX,
                id + BLOCK_SUFFIX, DYN_PREFIX + id, DYNURI_PREFIX + rule);
        try {
            model.addAttribute("changes", audit.history(fields, BlockedController.unblockField(module,
                            RedisKeys.escaped(rule) + ":"), CHANGES).stream()
                    .map(entry -> new AuditController.AuditLine(clock.format(entry.at()), entry)).toList());
            return false;
        } catch (RuntimeException e) {
            model.addAttribute("databaseError", e.getClass().getSimpleName());
            model.addAttribute("changes", List.of());
            return true;
        }
    }
}
