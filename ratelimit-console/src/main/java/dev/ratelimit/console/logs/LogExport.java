package dev.ratelimit.console.logs;

import cn.idev.excel.ExcelWriter;
import cn.idev.excel.FastExcel;
import cn.idev.excel.metadata.Head;
import cn.idev.excel.write.metadata.WriteSheet;
import cn.idev.excel.write.style.column.AbstractHeadColumnWidthStyleStrategy;
import dev.ratelimit.console.report.LogEntry;
import dev.ratelimit.console.report.LogFilter;
import dev.ratelimit.console.report.LogReports;
import dev.ratelimit.console.report.LogSort;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.context.MessageSource;

/**
 * Streams log rows into an .xlsx: rows are read from the database and written to the sheet a chunk at
 * a time (FastExcel, EasyExcel's API, keeps only a window of rows in memory), up to a row cap. Headers are
 * the on-screen column labels in the operator's language.
 */
final class LogExport {

    static final int CHUNK = 1_000;

    private final LogReports reports;
    private final MessageSource messages;
    private final long maxRows;

    LogExport(LogReports reports, MessageSource messages, long maxRows) {
        this.reports = reports;
        this.messages = messages;
        this.maxRows = maxRows;
    }

    /** @return the number of rows written */
    long write(LogFilter filter, LogSort sort, boolean descending, Locale locale, OutputStream out) {
        List<List<String>> head = new ArrayList<>();
        for (LogColumn column : LogColumn.values()) {
            head.add(List.of(messages.getMessage(column.messageKey(), null, column.name(), locale)));
        }
        ExcelWriter writer = FastExcel.write(out).head(head).autoCloseStream(false).useDefaultStyle(false)
                .registerWriteHandler(new SheetLayout())
                .registerWriteHandler(new LiteralTextCells())
                .registerWriteHandler(new ColumnWidths())
                .build();
        try {
            WriteSheet sheet = FastExcel.writerSheet("interceptions").build();
            List<List<Object>> chunk = new ArrayList<>(CHUNK);
            long rows = reports.forEach(filter, sort, descending, maxRows, entry -> {
                chunk.add(cells(entry));
                if (chunk.size() == CHUNK) {
                    writer.write(chunk, sheet);
                    chunk.clear();
                }
            });
            writer.write(chunk, sheet);
            return rows;
        } finally {
            writer.finish();
        }
    }

    /** The widths of {@link LogColumn}, in characters. */
    private static final class ColumnWidths extends AbstractHeadColumnWidthStyleStrategy {

        @Override
        protected Integer columnWidth(Head head, Integer columnIndex) {
            return LogColumn.values()[columnIndex].width();
        }
    }

    private static List<Object> cells(LogEntry entry) {
        List<Object> cells = new ArrayList<>(LogColumn.values().length);
        for (LogColumn column : LogColumn.values()) {
            cells.add(column.cell(entry));
        }
        return cells;
    }
}
