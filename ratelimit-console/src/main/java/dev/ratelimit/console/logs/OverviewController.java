package dev.ratelimit.console.logs;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.live.LiveTraffic;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogReports;
import jakarta.servlet.http.HttpServletResponse;
import java.time.LocalDate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The landing page: Redis' eviction policy when it may evict operators' rules, the traffic of now (drawn
 * by its script from {@code live.json}, when the statistics are there), today's interceptions, the rules
 * behind them, and the last 30 days.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class OverviewController {

    static final int TOP_RULES = 10;

    private final LogReports reports;
    private final LogClock clock;
    private final boolean live;
    private final EvictionPolicy eviction;

    /**
     * @param live     present when the live view ({@code live.json}) is served
     * @param eviction Redis' eviction policy, which may put operators' rules at risk
     */
    public OverviewController(ObjectProvider<LogReports> reports, LogClock clock, ObjectProvider<LiveTraffic> live,
                              ObjectProvider<EvictionPolicy> eviction) {
        this.reports = reports.getIfAvailable();
        this.clock = clock;
        this.live = live.getIfAvailable() != null;
        this.eviction = eviction.getIfAvailable();
    }

    @GetMapping({"", "/"})
    public String overview(Model model, HttpServletResponse response) {
        model.addAttribute("live", live);
        model.addAttribute("maxmemoryPolicy", eviction == null ? null : eviction.current());
        if (reports == null) {
            model.addAttribute("unavailable", true);
            return "ratelimit-console/overview";
        }
        LocalDate today = clock.today();
        LogFilter todayOnly = LogFilter.all().between(today.atStartOfDay(), today.plusDays(1).atStartOfDay());
        try {
            CountChart trend = CountChart.days(reports.dailyCounts(LogFilter.all(),
                    today.minusDays(LogsController.TREND_DAYS - 1), today));
            model.addAttribute("trend", trend);
            model.addAttribute("today", reports.dailyCounts(LogFilter.all(), today, today).get(0).count());
            model.addAttribute("topRules", reports.ruleDistribution(todayOnly).stream().limit(TOP_RULES).toList());
            model.addAttribute("todayQuery", "from=" + today + "&to=" + today.plusDays(1));
        } catch (RuntimeException e) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            model.addAttribute("databaseError", e.getClass().getSimpleName());
        }
        return "ratelimit-console/overview";
    }
}
