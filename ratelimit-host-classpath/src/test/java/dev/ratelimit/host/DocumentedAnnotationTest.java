package dev.ratelimit.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the guide says of {@code @RateLimit} is what the annotation is: the table of its attributes names each
 * of them, and only them, with the defaults the annotation has; every {@code @RateLimit(...)} of every page
 * uses attributes that exist; every constant of {@code Algorithm}, {@code Dimension} and {@code QuotaPeriod} a
 * page writes exists, and the tables of dimensions and algorithms name constants. A renamed attribute or
 * constant fails here until the pages follow it.
 */
class DocumentedAnnotationTest {

    private static final Path LIMITS = Documentation.ROOT.resolve("docs/limits.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)\\s*=(?!=)");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Map<String, Class<? extends Enum<?>>> ENUMS = Map.of(
            "Algorithm", Algorithm.class, "Dimension", Dimension.class, "QuotaPeriod", QuotaPeriod.class);

    @Test
    void theAttributesTableNamesEveryAttributeWithItsDefault() {
        Map<String, String> rows = table(LIMITS, "## The annotation");
        Map<String, String> documented = new LinkedHashMap<>();
        rows.forEach((names, defaults) -> {
            List<String> attributes = codes(names);
            List<String> values = codes(defaults);
            for (int i = 0; i < attributes.size(); i++) {
                documented.put(attributes.get(i), values.size() == attributes.size() ? values.get(i) : null);
            }
        });
        Set<String> declared = Arrays.stream(RateLimit.class.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(new TreeSet<>(documented.keySet())).as("the attributes in the table of " + LIMITS)
                .isEqualTo(declared);

        List<String> wrongDefaults = new ArrayList<>();
        documented.forEach((name, written) -> {
            Object actual = defaultOf(name);
            // A default written as another attribute or a property ("penalty", "ratelimit.quota.zone") is a
            // reference the annotation's own value stands for; only a literal is compared.
            if (written != null && !declared.contains(written) && !written.contains(".") && actual != null
                    && !String.valueOf(actual).equals(written)) {
                wrongDefaults.add(name + ": the table says " + written + ", the annotation " + actual);
            }
        });
        assertThat(wrongDefaults).as("defaults in the table that are not the annotation's").isEmpty();
    }

    @Test
    void everyRateLimitOfThePagesUsesAttributesThatExist() {
        Set<String> declared = Arrays.stream(RateLimit.class.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        int seen = 0;
        for (Path page : Documentation.pages()) {
            String text = String.join("\n", Documentation.lines(page));
            for (int at = text.indexOf("@RateLimit("); at >= 0; at = text.indexOf("@RateLimit(", at + 1)) {
                String arguments = STRING.matcher(arguments(text, at + "@RateLimit".length())).replaceAll("\"\"");
                Matcher attribute = ATTRIBUTE.matcher(arguments);
                while (attribute.find()) {
                    seen++;
                    if (!declared.contains(attribute.group(1))) {
                        unknown.add(Documentation.ROOT.relativize(page) + ": " + attribute.group(1));
                    }
                }
            }
        }
        assertThat(seen).as("attributes written in the pages' @RateLimit(...)").isGreaterThan(50);
        assertThat(unknown).as("attributes @RateLimit does not have").isEmpty();
    }

    @Test
    void everyConstantThePagesWriteExists() {
        List<String> unknown = new ArrayList<>();
        Pattern constant = Pattern.compile("\\b(" + String.join("|", ENUMS.keySet()) + ")\\.([A-Z][A-Z0-9_]*)\\b");
        for (Path page : Documentation.pages()) {
            Matcher matcher = constant.matcher(String.join("\n", Documentation.lines(page)));
            while (matcher.find()) {
                if (!names(ENUMS.get(matcher.group(1))).contains(matcher.group(2))) {
                    unknown.add(Documentation.ROOT.relativize(page) + ": " + matcher.group());
                }
            }
        }
        assertThat(unknown).isEmpty();
    }

    @Test
    void theTablesOfDimensionsAndAlgorithmsNameConstants() {
        Set<String> dimensions = firstCodes(table(LIMITS, "## Dimensions"));
        assertThat(dimensions).as("the dimensions table").isEqualTo(names(Dimension.class));
        Set<String> algorithms = firstCodes(table(LIMITS, "## Algorithms"));
        // Concurrency limits have a page of their own; the table compares the counters of rates.
        Set<String> rates = new TreeSet<>(names(Algorithm.class));
        rates.remove(Algorithm.CONCURRENCY.name());
        assertThat(algorithms).as("the algorithms table").isEqualTo(rates);
    }

    private static Object defaultOf(String attribute) {
        try {
            Object value = RateLimit.class.getMethod(attribute).getDefaultValue();
            return value instanceof String text && text.isEmpty() ? null : value;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** The text between the parenthesis at {@code open} and the one that closes it. */
    private static String arguments(String text, int open) {
        int depth = 0;
        boolean quoted = false;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' && text.charAt(i - 1) != '\\') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth == 0) {
                return text.substring(open + 1, i);
            }
        }
        return text.substring(open + 1);
    }

    /** The first two columns of the first table under {@code heading}, the first column as written. */
    private static Map<String, String> table(Path page, String heading) {
        List<String> lines = Documentation.lines(page);
        Map<String, String> rows = new LinkedHashMap<>();
        int start = lines.indexOf(heading);
        assertThat(start).as(heading + " in " + page).isNotNegative();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String[] cells = lines.get(i).split("\\|", -1);
            if (cells.length > 3 && cells[1].strip().startsWith("`")) {
                rows.put(cells[1].strip(), cells[2].strip());
            } else if (!rows.isEmpty()) {
                break;
            }
        }
        assertThat(rows).as("the table under " + heading).isNotEmpty();
        return rows;
    }

    private static List<String> codes(String cell) {
        List<String> codes = new ArrayList<>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            codes.add(code.group(1));
        }
        return codes;
    }

    private static Set<String> firstCodes(Map<String, String> rows) {
        return rows.keySet().stream().map(cell -> codes(cell).get(0)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> names(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
    }
}
