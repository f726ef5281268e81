package dev.ratelimit.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Markdown table, its columns padded so it also reads well as plain text. */
public final class MarkdownTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    public MarkdownTable row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(String.valueOf(cell));
        }
        rows.add(row);
        return this;
    }

    /** A whole number with thousands separators, as a rate is shown. */
    public static String count(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    /** A latency or a size with one decimal. */
    public static String decimal(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    /** A ratio as {@code 1.23x}. */
    public static String ratio(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%.2fx", value);
    }

    @Override
    public String toString() {
        int[] widths = new int[header.size()];
        for (List<String> row : allRows()) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        List<String> rule = new ArrayList<>();
        for (int width : widths) {
            rule.add("-".repeat(Math.max(3, width)));
        }
        line(out, rule, widths);
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private List<List<String>> allRows() {
        List<List<String>> all = new ArrayList<>(rows);
        all.add(header);
        return all;
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int i = 0; i < cells.size(); i++) {
            out.append(' ').append(cells.get(i)).append(" ".repeat(widths[i] - cells.get(i).length())).append(" |");
        }
        out.append('\n');
    }
}
