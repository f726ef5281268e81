package dev.ratelimit.console.logs;

import dev.ratelimit.console.report.LogEntry;
import dev.ratelimit.console.report.LogSort;
import java.time.format.DateTimeFormatter;
import java.util.function.Function;

/**
 * The columns of the interception log, in order: the on-screen table and the Excel export are both
 * made from this one list, so they always agree.
 */
public enum LogColumn {
    CREATED_AT("console.column.createdAt", LogSort.TIME, 24,
            entry -> entry.createdAt().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"))),
    MODULE("console.column.module", LogSort.MODULE, 14, entry -> entry.rule().module()),
    /** The rule's id, {@code <module>.<rule>}: the one name the overview, the rules page and the filter use. */
    RULE("console.column.rule", LogSort.RULE, 44, entry -> entry.rule().toString()),
    USER("console.column.user", LogSort.USER, 18, LogEntry::user),
    IP("console.column.ip", LogSort.IP, 18, LogEntry::ip),
    HTTP_METHOD("console.column.httpMethod", null, 9, LogEntry::httpMethod),
    URI("console.column.uri", LogSort.URI, 48, LogEntry::uri),
    DIMENSION("console.column.dimension", null, 11, LogEntry::dimension),
    LIMIT("console.column.limit", null, 8, entry -> Long.toString(entry.limitCount())),
    WINDOW("console.column.window", null, 10, entry -> Long.toString(entry.windowSeconds())),
    SHADOW("console.column.shadow", null, 8, entry -> entry.shadow() ? "1" : "0"),
    /** The identical interceptions the row stands for (coalesced within {@code ratelimit.log.writer.coalesce-window}). */
    HITS("console.column.hits", null, 8, entry -> Long.toString(entry.hits())),
    /** {@code limit}, or {@code deny} for a request the deny list refused. */
    REASON("console.column.reason", null, 8, LogEntry::reason);

    private final String messageKey;
    private final LogSort sort;
    private final int width;
    private final Function<LogEntry, String> value;

    LogColumn(String messageKey, LogSort sort, int width, Function<LogEntry, String> value) {
        this.messageKey = messageKey;
        this.sort = sort;
        this.width = width;
        this.value = value;
    }

    /** Message key of the header, localized on screen and in the export. */
    public String messageKey() {
        return messageKey;
    }

    /** The sort the header links to, or {@code null} when the column cannot be sorted by. */
    public LogSort sort() {
        return sort;
    }

    /** Column width in the export, in characters. */
    public int width() {
        return width;
    }

    /** The cell text of a row; empty for a missing value. */
    public String value(LogEntry entry) {
        String text = value.apply(entry);
        return text == null ? "" : text;
    }

    /**
     * The export's cell: a date-time for the time, a number for the counts, text for everything else
     * (text that clients sent stays text: see {@code LiteralTextCells}).
     */
    Object cell(LogEntry entry) {
        return switch (this) {
            case CREATED_AT -> entry.createdAt();
            case LIMIT -> entry.limitCount();
            case WINDOW -> entry.windowSeconds();
            case SHADOW -> entry.shadow() ? 1 : 0;
            case HITS -> entry.hits();
            default -> value(entry);
        };
    }
}
