package dev.ratelimit.interceptor.internal.log.writer;

import java.time.LocalDateTime;
import org.apache.ibatis.annotations.Param;

/** Statements that put rows into the log table and take old ones out ({@code LogWriteMapper.xml}). */
interface LogWriteMapper {

    /** One row; the writer runs it on a BATCH executor, so a batch of rows is one JDBC batch. */
    void insert(LogRow row);

    /** Deletes at most {@code limit} rows created before {@code cutoff}; returns how many. */
    int deleteOlderThan(@Param("cutoff") LocalDateTime cutoff, @Param("limit") int limit);
}
