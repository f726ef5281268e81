package dev.ratelimit.console.logs;

import dev.ratelimit.console.report.DayCount;
import dev.ratelimit.console.report.HourCount;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * A bar chart of interception counts, per day or per hour, as the page hands it to ECharts: labels and
 * values as plain comma-separated text in data attributes, so no value is ever written into a script.
 *
 * @param titleKey the message key of its title, which names the granularity
 */
public record CountChart(String titleKey, String labels, String values, long total) {

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("MM-dd HH:00");

    static CountChart days(List<DayCount> days) {
        return of("console.logs.daily", days, day -> day.day().toString(), DayCount::count);
    }

    static CountChart hours(List<HourCount> hours) {
        return of("console.logs.hourly", hours, hour -> HOUR.format(hour.hour()), HourCount::count);
    }

    private static <T> CountChart of(String titleKey, List<T> bars, Function<T, String> label, ToLongFunction<T> count) {
        return new CountChart(titleKey, bars.stream().map(label).collect(Collectors.joining(",")),
                bars.stream().map(bar -> Long.toString(count.applyAsLong(bar))).collect(Collectors.joining(",")),
                bars.stream().mapToLong(count).sum());
    }
}
