package dev.ratelimit.interceptor.log.writer;

import java.time.LocalDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Statements that put rows into the log table and take old ones out ({@code LogWriteMapper.xml}). */
interface LogWriteMapper {

    /** One multi-row INSERT: one round trip per batch, whatever the JDBC driver does with JDBC batches. */
    int insertAll(@Param("rows") List<LogRow> rows);

    /** Deletes at most {@code limit} rows created before {@code cutoff}; returns how many. */
    int deleteOlderThan(@Param("cutoff") LocalDateTime cutoff, @Param("limit") int limit);
}
