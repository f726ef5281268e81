package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The fields table of {@code docs/redis-layout.md} says what the config hash holds: every field the parser
 * reads is in it, and it names no field the parser does not read. A field is read when the parser reports a
 * bad value of it (an unknown field is skipped without a word), so each row is tried with a value no field
 * accepts.
 */
class FieldsTableTest {

    private static final Path PAGE = Path.of("..", "docs", "redis-layout.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\|", Pattern.MULTILINE);
    private static final Pattern PLACEHOLDER = Pattern.compile("<([^>]+)>");
    private static final String NO_VALUE = "[not a value]";
    private static final RuleId RULE = RuleId.of("shop", "OrderController.create");
    /** Read only by the start-up merge and the version check, which take any value: never reported. */
    private static final Set<String> UNCHECKED = Set.of("declared.<knob>", "config.version");
    /** A user code is any text. */
    private static final Set<String> ANY_VALUE = Set.of("whitelist.users");

    @Test
    void everyRowOfTheTableIsAFieldTheParserReads() throws IOException {
        List<String> rows = rows();
        assertThat(rows).as("the table's rows").hasSizeGreaterThan(10);
        List<String> unread = new ArrayList<>();
        for (String row : rows) {
            if (UNCHECKED.contains(row) || ANY_VALUE.contains(row)) {
                continue;
            }
            String field = example(row);
            RuleSnapshot snapshot = SysConfigParser.parse(Map.of(field, NO_VALUE), Instant.now(), warning -> { });
            if (!snapshot.ignored().containsKey(field)) {
                unread.add(row + " (tried as " + field + ")");
            }
        }
        assertThat(unread).as("rows whose bad value the parser does not report: fields it does not read").isEmpty();
    }

    @Test
    void everyFieldTheParserReadsIsInTheTable() throws IOException {
        List<String> rows = rows();
        List<String> missing = new ArrayList<>();
        for (Knob knob : Knob.values()) {
            expectRow(rows, "<module>.<rule>" + knob.field(RULE).substring(RULE.toString().length()), missing);
        }
        for (DenyList.Kind kind : DenyList.Kind.values()) {
            expectRowStartingWith(rows, kind.rule() + ".", missing);
        }
        for (String constant : fieldConstants()) {
            expectRowContaining(rows, constant, missing);
        }
        assertThat(missing).as("fields the parser reads that the table does not name").isEmpty();
    }

    /** The row's pattern with each placeholder made a field part the parser takes. */
    private static String example(String row) {
        Matcher placeholder = PLACEHOLDER.matcher(row);
        StringBuilder field = new StringBuilder();
        while (placeholder.find()) {
            placeholder.appendReplacement(field, Matcher.quoteReplacement(switch (placeholder.group(1)) {
                case "module" -> "shop";
                case "rule" -> "OrderController.create";
                case "plan" -> "pro";
                case "identity" -> "alice";
                case "ant-pattern" -> "/api/**";
                case "address or CIDR block" -> "203.0.113.0/24";
                case "user code" -> "bob";
                case "key" -> "partner-7";
                default -> throw new AssertionError("no example for <" + placeholder.group(1) + "> in " + row);
            }));
        }
        placeholder.appendTail(field);
        return field.toString();
    }

    /** The constants of {@link SysConfigFields} that are whole fields, prefixes or infixes of fields. */
    private static List<String> fieldConstants() {
        return Arrays.stream(SysConfigFields.class.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == String.class)
                .map(FieldsTableTest::value)
                .toList();
    }

    private static String value(Field field) {
        try {
            field.setAccessible(true);
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static void expectRow(List<String> rows, String row, List<String> missing) {
        if (!rows.contains(row)) {
            missing.add(row);
        }
    }

    private static void expectRowStartingWith(List<String> rows, String start, List<String> missing) {
        if (rows.stream().noneMatch(row -> row.startsWith(start))) {
            missing.add(start + "...");
        }
    }

    private static void expectRowContaining(List<String> rows, String part, List<String> missing) {
        if (rows.stream().noneMatch(row -> row.contains(part))) {
            missing.add("..." + part + "...");
        }
    }

    /** The first column of the table under the page's "sysconfig fields" heading. */
    private static List<String> rows() throws IOException {
        String page = Files.readString(PAGE);
        int heading = page.indexOf("## `{p}:sysconfig` fields");
        assertThat(heading).as("the fields heading of " + PAGE).isNotNegative();
        int next = page.indexOf("\n## ", heading + 1);
        String section = page.substring(heading, next < 0 ? page.length() : next);
        Set<String> rows = new LinkedHashSet<>();
        Matcher row = ROW.matcher(section);
        while (row.find()) {
            rows.add(row.group(1));
        }
        return List.copyOf(rows);
    }
}
