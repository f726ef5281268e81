package dev.ratelimit.console.report;

import java.util.List;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.cursor.Cursor;

/** The report statements ({@code LogReportMapper.xml}); every value is bound, every sort a fixed choice. */
interface LogReportMapper {

    LogTotals totals(@Param("c") LogCriteria criteria);

    List<LogEntry> page(@Param("c") LogCriteria criteria, @Param("sort") LogSort sort,
                        @Param("descending") boolean descending, @Param("offset") long offset,
                        @Param("limit") int limit);

    Cursor<LogEntry> stream(@Param("c") LogCriteria criteria, @Param("sort") LogSort sort,
                            @Param("descending") boolean descending);

    List<UserCount> topUsers(@Param("c") LogCriteria criteria, @Param("limit") int limit);

    List<IpCount> topIps(@Param("c") LogCriteria criteria, @Param("limit") int limit);

    List<RuleCount> rules(@Param("c") LogCriteria criteria);

    List<DayCount> days(@Param("c") LogCriteria criteria);

    List<HourBucket> hours(@Param("c") LogCriteria criteria);
}
