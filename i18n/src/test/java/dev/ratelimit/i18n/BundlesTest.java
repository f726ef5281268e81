package dev.ratelimit.i18n;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.Format;
import java.text.MessageFormat;
import java.text.SimpleDateFormat;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every language of the bundle {@code ratelimit/messages} says what the default, English one says, no
 * more and no less, with the same arguments, so that no client or operator reads a text in English by
 * fallback or a {@code {0}} left unfilled. The languages are the bundle's files.
 */
class BundlesTest {

    private static final String BASENAME = "ratelimit/messages";

    /** The languages docs/responses.md promises. */
    private static final List<String> PROMISED = List.of("ja", "zh_CN", "zh_TW", "de", "es", "fr", "pt", "ko");

    /** What a refused client reads (the JSON body, the page): translated in every language, never English by fallback. */
    private static final Set<String> CLIENT_TEXTS = Set.of("ratelimit.rejected", "ratelimit.unavailable",
            "ratelimit.tooCostly", "ratelimit.denied", "ratelimit.page.rejected", "ratelimit.page.unavailable",
            "ratelimit.page.tooCostly", "ratelimit.page.denied");

    /**
     * Operator texts (console labels, refused config values) a language leaves to the English default on
     * purpose, per language. A client text may never be here.
     */
    private static final Map<String, Set<String>> ENGLISH_ON_PURPOSE = Map.of();

    /** Keys whose text is always formatted, with arguments or without ({@code InvalidValueException}). */
    private static final List<String> ALWAYS_FORMATTED = List.of("ratelimit.config.", "ratelimit.document.");

    static Stream<String> languages() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("messages_") && name.endsWith(".properties"))
                    .map(name -> name.substring("messages_".length(), name.length() - ".properties".length()))
                    .filter(language -> !language.equals("en"))
                    .sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theBundleHasEveryPromisedLanguageAndEnglishIsItsDefault() {
        assertThat(languages()).containsAll(PROMISED);
        assertThat(CLIENT_TEXTS).allSatisfy(key -> assertThat(texts("")).containsKey(key));
        assertThat(ENGLISH_ON_PURPOSE.values()).allSatisfy(keys -> assertThat(keys).doesNotContainAnyElementsOf(CLIENT_TEXTS));
        // The English file exists only so that English is never answered in the JVM's language: it adds nothing.
        assertThat(texts("_en")).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("languages")
    void aLanguageHasEveryKeyOfTheDefaultAndNoOther(String language) {
        Set<String> expected = new TreeSet<>(texts("").keySet());
        Set<String> english = ENGLISH_ON_PURPOSE.getOrDefault(language, Set.of());
        expected.removeAll(english);

        assertThat(new TreeSet<>(texts("_" + language).keySet())).as(language).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("languages")
    void aTextTakesTheSameArgumentsAsTheDefaultsAndQuotesAsItIsRead(String language) {
        Map<String, String> defaults = texts("");
        SoftAssertions softly = new SoftAssertions();
        texts("_" + language).forEach((key, text) -> {
            String english = defaults.get(key);
            if (english == null) {
                return;
            }
            softly.assertThat(arguments(text)).as("%s %s: %s", language, key, text).isEqualTo(arguments(english));
            softly.assertThat(quoting(key, text)).as("%s %s: %s", language, key, text).isEmpty();
            if (CLIENT_TEXTS.contains(key)) {
                softly.assertThat(text).as("%s %s is translated", language, key).isNotEqualTo(english);
            }
        });
        softly.assertAll();
    }

    @Test
    void theDefaultsQuoteAsTheyAreRead() {
        assertThat(texts("")).allSatisfy((key, text) -> assertThat(quoting(key, text)).as(key).isEmpty());
    }

    /**
     * The arguments a pattern uses, by index, with their formats: whether an argument is used is seen in
     * the output, as a translation that drops or adds one would show it.
     */
    private static Map<Integer, String> arguments(String pattern) {
        MessageFormat format = new MessageFormat(pattern, Locale.ROOT);
        Format[] formats = format.getFormatsByArgumentIndex();
        Map<Integer, String> used = new TreeMap<>();
        for (int i = 0; i < formats.length; i++) {
            Object[] some = new Object[formats.length];
            Arrays.fill(some, 1);
            Object[] other = some.clone();
            other[i] = 2;
            if (!format.format(some).equals(format.format(other))) {
                used.put(i, describe(formats[i]));
            }
        }
        return used;
    }

    private static String describe(Format format) {
        if (format == null) {
            return "{n}";
        }
        if (format instanceof DecimalFormat number) {
            return "number " + number.toPattern();
        }
        return format instanceof SimpleDateFormat date ? "date " + date.toPattern() : format.getClass().getSimpleName();
    }

    /**
     * What is wrong with the quotes of a text, or empty. A formatted text (one with arguments, or always
     * formatted) writes a literal quote {@code ''} and may quote a brace ({@code '{'}); a text shown as it
     * is (Spring does not format a message without arguments) has no {@code ''}, which would show doubled.
     */
    private static String quoting(String key, String text) {
        boolean formatted = !arguments(text).isEmpty() || ALWAYS_FORMATTED.stream().anyMatch(key::startsWith);
        if (!formatted) {
            return text.contains("''") ? "'' in a text shown as it is" : "";
        }
        String unquoted = text.replace("''", "").replace("'{'", "").replace("'}'", "");
        return unquoted.contains("'") ? "a lone ' in a formatted text: it starts a quoted part, write ''" : "";
    }

    /** A file's texts in their order, refusing a key given twice (the last would silently win). */
    private static Map<String, String> texts(String suffix) {
        Path file = directory().resolve("messages" + suffix + ".properties");
        Map<String, String> texts = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                assertThat(line).as(file.getFileName() + ": a line is key=text, on one line").contains("=").doesNotEndWith("\\");
                String key = line.substring(0, line.indexOf('=')).strip();
                assertThat(texts.put(key, line.substring(line.indexOf('=') + 1)))
                        .as(file.getFileName() + ": " + key + " given twice").isNull();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return texts;
    }

    private static Path directory() {
        try {
            return Path.of(BundlesTest.class.getClassLoader().getResource(BASENAME + ".properties").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
