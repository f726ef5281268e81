package dev.ratelimit.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's documentation as the tests read it: README.md, the guide under docs/ and BENCHMARKS.md, found
 * from the repository root, and the headings GitHub turns into anchors.
 */
final class Documentation {

    /** The repository root: the first directory above this module's that holds CI's entry point. */
    static final Path ROOT = findRoot();

    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.*?)#* *$");
    private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)]\\(([^)]*)\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("`+[^`]*`+");

    private Documentation() {
    }

    private static Path findRoot() {
        // Surefire runs in the module's directory; walking up (rather than assuming "..") keeps working if the
        // module moves deeper.
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory above " + Path.of("").toAbsolutePath() + " holds .ci/run");
    }

    /** README.md and every page of the guide, the pages a reader follows links between. */
    static List<Path> pages() {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** The pages, and BENCHMARKS.md, which the pages link into and which links back into them. */
    static List<Path> pagesAndBenchmarks() {
        List<Path> files = new ArrayList<>(pages());
        files.add(ROOT.resolve("BENCHMARKS.md"));
        return files;
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The file's lines with fenced code blocks blanked and code spans removed: a link written inside code (a
     * URL template such as {@code redis://[user:password@]host}) is an example, not a link. Line numbers stay.
     */
    static List<String> prose(Path file) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines(file)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                prose.add("");
            } else {
                prose.add(fenced ? "" : CODE_SPAN.matcher(line).replaceAll(""));
            }
        }
        return prose;
    }

    /** Every inline link of a prose line: label and target. */
    static List<String[]> links(String proseLine) {
        List<String[]> links = new ArrayList<>();
        Matcher matcher = INLINE_LINK.matcher(proseLine);
        while (matcher.find()) {
            String target = matcher.group(2).strip();
            int title = target.indexOf(' ');
            links.add(new String[] {matcher.group(1), title < 0 ? target : target.substring(0, title)});
        }
        return links;
    }

    /**
     * The anchors GitHub gives the file's headings: the heading's text, lower-cased, without punctuation but
     * hyphens and underscores, spaces turned into hyphens; a repeated one gets -1, -2... appended.
     */
    static Set<String> anchors(Path markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines(markdown)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                continue;
            }
            String anchor = anchor(INLINE_LINK.matcher(heading.group(1)).replaceAll("$1"));
            int times = seen.merge(anchor, 1, Integer::sum);
            anchors.add(times == 1 ? anchor : anchor + "-" + (times - 1));
        }
        return anchors;
    }

    static String anchor(String headingText) {
        return headingText.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
    }
}
