package dev.ratelimit.console.logs;

import dev.ratelimit.interceptor.log.report.DayCount;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A daily-count bar chart as the page hands it to ECharts: labels and values as plain comma-separated
 * text in data attributes, so no value is ever written into a script.
 */
public record DailyChart(String labels, String values, long total) {

    static DailyChart of(List<DayCount> days) {
        return new DailyChart(
                days.stream().map(day -> day.day().toString()).collect(Collectors.joining(",")),
                days.stream().map(day -> Long.toString(day.count())).collect(Collectors.joining(",")),
                days.stream().mapToLong(DayCount::count).sum());
    }
}
