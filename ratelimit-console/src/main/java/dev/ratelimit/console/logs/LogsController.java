package dev.ratelimit.console.logs;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.console.report.DayCount;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogPage;
import dev.ratelimit.console.report.LogPageRequest;
import dev.ratelimit.console.report.LogReports;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.MessageSource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The interception log: filtered, paged, sortable detail rows, top users, interceptions per rule and
 * per day, and the Excel export of exactly what the filter selects. A database that does not answer
 * gives a message on the page, never an error page.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class LogsController {

    static final int TREND_DAYS = 30;
    static final int TOP_USERS = 10;

    private final LogReports reports;
    private final LogClock clock;
    private final LogExport export;
    private final MessageSource messages;
    private final int pageSize;

    public LogsController(ObjectProvider<LogReports> reports, LogClock clock, MessageSource messages,
                          ConsoleProperties properties) {
        this.reports = reports.getIfAvailable();
        this.clock = clock;
        this.export = this.reports == null ? null : new LogExport(this.reports, messages, properties.exportRowCap());
        this.messages = messages;
        this.pageSize = properties.pageSize();
    }

    @GetMapping("/logs")
    public String logs(LogQuery query, BindingResult binding, Model model, Locale locale,
                       HttpServletResponse response) {
        model.addAttribute("query", query);
        model.addAttribute("columns", List.of(LogColumn.values()));
        model.addAttribute("zone", clock.clock().getZone().getId());
        if (reports == null) {
            model.addAttribute("unavailable", true);
            return "ratelimit-console/logs";
        }
        List<LogQuery.Problem> problems = new ArrayList<>();
        binding.getFieldErrors().forEach(error -> problems.add(new LogQuery.Problem("console.logs.badParameter",
                error.getField(), error.getRejectedValue())));
        LogFilter filter = query.filter(problems);
        try {
            LogPage page = reports.detail(filter, new LogPageRequest(query.pageIndex(), pageSize, query.logSort(),
                    query.descending()));
            if (page.pages() > 0 && page.page() >= page.pages()) {
                // Past the last page (an old link, a typed number): the last page, not "page 1,000,000 of 2".
                page = reports.detail(filter, new LogPageRequest((int) page.pages() - 1, pageSize, query.logSort(),
                        query.descending()));
            }
            model.addAttribute("page", page);
            model.addAttribute("topUsers", reports.topUsers(filter, TOP_USERS));
            model.addAttribute("perRule", reports.ruleDistribution(filter));
            model.addAttribute("chart", chart(filter, problems));
        } catch (RuntimeException e) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            model.addAttribute("databaseError", e.getClass().getSimpleName());
        }
        model.addAttribute("problems", problems.stream()
                .map(problem -> messages.getMessage(problem.key(), problem.arguments(), locale)).toList());
        return "ratelimit-console/logs";
    }

    /** The rows the same filter shows, sorted the same way, as an .xlsx download. */
    @GetMapping("/logs/export")
    public void export(LogQuery query, BindingResult binding, Locale locale, HttpServletResponse response)
            throws IOException {
        if (reports == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        String name = "ratelimit-log-" + LocalDateTime.now(clock.clock())
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".xlsx";
        response.setContentType("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(name).build().toString());
        export.write(query.filter(new ArrayList<>()), query.logSort(), query.descending(), locale, response.getOutputStream());
    }

    /**
     * By the hour for a range of up to {@value LogReports#MAX_HOURS} hours (a day must not be one bar),
     * else by the day.
     */
    private CountChart chart(LogFilter filter, List<LogQuery.Problem> problems) {
        if (filter.from() != null) {
            LocalDateTime end = filter.to() != null ? filter.to() : LocalDateTime.now(clock.clock());
            if (end.isAfter(filter.from())
                    && !end.isAfter(filter.from().truncatedTo(ChronoUnit.HOURS).plusHours(LogReports.MAX_HOURS))) {
                return CountChart.hours(reports.hourlyCounts(filter, filter.from(), end));
            }
        }
        return CountChart.days(dailyCounts(filter, problems));
    }

    /** The days of the filter's range, or the last 30 days up to its end (or today). */
    private List<DayCount> dailyCounts(LogFilter filter, List<LogQuery.Problem> problems) {
        LocalDate last = filter.to() != null ? filter.to().minusNanos(1).toLocalDate() : clock.today();
        LocalDate first = filter.from() != null ? filter.from().toLocalDate() : last.minusDays(TREND_DAYS - 1);
        try {
            return reports.dailyCounts(filter, first, last);
        } catch (IllegalArgumentException e) {
            problems.add(new LogQuery.Problem("console.logs.chartTooLong", first, last, TREND_DAYS));
            return reports.dailyCounts(filter, last.minusDays(TREND_DAYS - 1), last);
        }
    }
}
