package dev.ratelimit.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * Every Java snippet of the README and the guide compiles against the published modules, and every YAML
 * snippet parses: a renamed type, method or attribute fails here until the pages follow it.
 *
 * <p>A snippet shows what a reader writes, so it leaves things out, and the test puts them back the one way
 * a reader would: {@code (...)} is an empty parameter or argument list, {@code { ... }} after a parameter
 * list a body (a class's body otherwise), {@code = ...;} a value the app has; annotations with nothing after
 * them annotate a method. Each snippet is the body of a class extending {@link SnippetContext}, which holds
 * the app's own types and the beans the snippets use, with the imports below.
 */
class DocumentedSnippetsTest {

    private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");
    private static final List<String> IMPORTS = List.of(
            "dev.ratelimit.interceptor.*", "dev.ratelimit.interceptor.config.SysConfigEditor",
            "dev.ratelimit.interceptor.identity.DenyList", "dev.ratelimit.interceptor.rule.RuleId",
            "dev.ratelimit.test.*", "java.lang.annotation.*", "java.time.Duration", "java.time.Instant",
            "java.util.List", "java.util.Optional", "java.util.concurrent.TimeUnit",
            "org.springframework.beans.factory.annotation.Autowired", "org.springframework.context.annotation.Bean",
            "org.springframework.context.event.EventListener", "org.springframework.core.annotation.AliasFor",
            "org.springframework.http.ResponseEntity", "org.springframework.scheduling.annotation.Scheduled",
            "org.springframework.stereotype.Component", "org.springframework.stereotype.Service",
            "org.springframework.web.bind.annotation.*", "org.springframework.boot.test.context.SpringBootTest",
            "org.junit.jupiter.api.Test", "org.springframework.test.web.servlet.MockMvc",
            "org.springframework.test.web.servlet.setup.MockMvcBuilders",
            "org.springframework.web.context.WebApplicationContext",
            "static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get");

    @Test
    void everyJavaSnippetCompiles(@TempDir Path classes) {
        List<Snippet> snippets = snippets("java");
        assertThat(snippets).as("Java snippets of the pages").hasSizeGreaterThan(10);
        List<String> units = new ArrayList<>();
        List<JavaFileObject> sources = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            units.add(unit("Snippet" + i, snippets.get(i).text()));
            sources.add(source("Snippet" + i, units.get(i)));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        javac.getTask(null, null, diagnostics, List.of("-proc:none", "-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path")), null, sources).call();

        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                int index = sources.indexOf(diagnostic.getSource());
                errors.add(snippets.get(index).where() + ": " + diagnostic.getMessage(Locale.ROOT) + "\n    in: "
                        + line(units.get(index), diagnostic.getLineNumber()));
            }
        }
        assertThat(errors).as("snippets that do not compile").isEmpty();
    }

    @Test
    void everyYamlSnippetParses() {
        List<Snippet> snippets = snippets("yaml");
        assertThat(snippets).as("YAML snippets of the pages").isNotEmpty();
        for (Snippet snippet : snippets) {
            Object document = new Yaml().load(snippet.text());
            assertThat(document).as(snippet.where()).isInstanceOf(Map.class);
        }
    }

    /** The code of every fenced block of {@code language} in the README and the guide. */
    private static List<Snippet> snippets(String language) {
        List<Snippet> snippets = new ArrayList<>();
        for (Path page : Documentation.pages()) {
            List<String> lines = Documentation.lines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher fence = FENCE.matcher(lines.get(i));
                if (!fence.matches() || fence.group(1).isEmpty()) {
                    continue;
                }
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).startsWith("```")) {
                    end++;
                }
                if (fence.group(1).equals(language)) {
                    snippets.add(new Snippet(Documentation.ROOT.relativize(page) + ":" + start,
                            String.join("\n", lines.subList(start, end))));
                }
                i = end;
            }
        }
        return snippets;
    }

    /** The snippet as a compilation unit: the class {@code name}, with the imports. */
    private static String unit(String name, String snippet) {
        StringBuilder unit = new StringBuilder("package dev.ratelimit.host;\n");
        IMPORTS.forEach(imported -> unit.append("import ").append(imported).append(";\n"));
        return unit.append("class ").append(name).append(" extends SnippetContext {\n").append(members(snippet))
                .append("\n}\n").toString();
    }

    private static JavaFileObject source(String name, String unit) {
        return new SimpleJavaFileObject(URI.create("string:///dev/ratelimit/host/" + name + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return unit;
            }
        };
    }

    /** The snippet with what it leaves out put back, as the class Javadoc says. */
    private static String members(String text) {
        String filled = text.replace("(...)", "()")
                .replaceAll("\\)(\\s*(?:throws [\\w., ]+)?)\\s*\\{ \\.\\.\\. }", ")$1 { throw new UnsupportedOperationException(); }")
                .replace("{ ... }", "{ }")
                .replaceAll("= \\.\\.\\.;", "= null;");
        StringBuilder members = new StringBuilder();
        int method = 0;
        for (String chunk : chunks(filled)) {
            members.append(chunk).append('\n');
            if (onlyAnnotations(chunk)) {
                members.append("void annotated").append(method++).append("() { }\n");
            }
            members.append('\n');
        }
        return members.toString();
    }

    /** The text split at its blank lines outside brackets and braces. */
    private static List<String> chunks(String text) {
        List<String> chunks = new ArrayList<>();
        StringBuilder chunk = new StringBuilder();
        int depth = 0;
        for (String line : text.split("\n", -1)) {
            if (line.isBlank() && depth == 0) {
                if (!chunk.isEmpty()) {
                    chunks.add(chunk.toString());
                    chunk.setLength(0);
                }
                continue;
            }
            chunk.append(line).append('\n');
            depth += depthChange(line);
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk.toString());
        }
        return chunks;
    }

    /** Whether every line of the chunk that starts outside brackets starts an annotation. */
    private static boolean onlyAnnotations(String chunk) {
        int depth = 0;
        for (String line : chunk.split("\n")) {
            if (depth == 0 && !line.isBlank() && !line.strip().startsWith("@")) {
                return false;
            }
            depth += depthChange(line);
        }
        return true;
    }

    /** Opening minus closing brackets and braces of a line, strings, characters and comments left out. */
    private static int depthChange(String line) {
        int change = 0;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/') {
                break;
            } else if (c == '(' || c == '{') {
                change++;
            } else if (c == ')' || c == '}') {
                change--;
            }
        }
        return change;
    }

    private static String line(String text, long number) {
        String[] lines = text.split("\n");
        return number >= 1 && number <= lines.length ? lines[(int) number - 1].strip() : "";
    }

    private record Snippet(String where, String text) {
    }
}
