package dev.ratelimit.console.report;

import dev.ratelimit.interceptor.internal.log.database.MapperHints;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** The report queries' mapper and what its statements read and write, for a native image. */
class LogReportRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        // LogSort: the XML's OGNL calls sort.name() to pick the ORDER BY.
        MapperHints.register(hints, LogReportMapper.class, LogCriteria.class, LogSort.class, LogTotals.class,
                LogEntry.class, UserCount.class, IpCount.class, RuleCount.class, DayCount.class, HourBucket.class);
    }
}
