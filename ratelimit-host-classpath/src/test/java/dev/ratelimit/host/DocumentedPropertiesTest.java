package dev.ratelimit.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference and the code agree. The properties are what Spring Boot's configuration
 * processor wrote into each published module's metadata: every one of them has a row in
 * docs/configuration.md, and every {@code ratelimit.*} property the README or the guide names exists. A
 * property added, renamed or dropped in code without the docs (or the other way round) fails here rather than
 * in a user's application.properties.
 */
class DocumentedPropertiesTest {

    /** A {@code ratelimit.} name as the pages write it, map keys ({@code <name>}) and wildcards included. */
    private static final Pattern NAME = Pattern.compile("(?<![\\w.\\-/{$])ratelimit(?:\\.[A-Za-z0-9_*<>\\-]+)+");

    /** A row of the reference: its first cell is the property. */
    private static final Pattern ROW = Pattern.compile("^\\| `(ratelimit\\.[^`]+)` \\|");

    /**
     * Names under {@code ratelimit.} that the guide writes and that are not properties: the Micrometer meters,
     * the observation, its event and span attributes, and the console's audit logger. Each must still be a
     * string of the main sources, so a renamed meter does not leave its old name here.
     */
    private static final Set<String> NAMES_IN_CODE = Set.of(
            "ratelimit.requests", "ratelimit.decision", "ratelimit.circuit.open", "ratelimit.log.dropped",
            "ratelimit.verdict", "ratelimit.refused", "ratelimit.rule", "ratelimit.outcome", "ratelimit.failure",
            "ratelimit.audit");

    /** The one Maven property the guide names (where the project is published); it must be in the root pom. */
    private static final Set<String> MAVEN_PROPERTIES = Set.of("ratelimit.repository.url");

    private static final Set<String> properties = new TreeSet<>();
    private static final Set<String> mapProperties = new TreeSet<>();
    /** The default each property's metadata gives, as the configuration processor wrote it: a list's elements. */
    private static final Map<String, List<String>> defaults = new TreeMap<>();
    private static final List<String> sources = new ArrayList<>();

    @BeforeAll
    static void readTheMetadata() throws Exception {
        // The library modules' metadata, from their jars on this classpath (an app's classpath: every published
        // library module), as an IDE reads it for an app's application.properties.
        ClassLoader loader = DocumentedPropertiesTest.class.getClassLoader();
        for (String resource : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            for (URL url : Collections.list(loader.getResources(resource))) {
                try (InputStream in = url.openStream()) {
                    read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
                sources.add(url.toString());
            }
        }
        // A runnable module (the standalone console) is no library, so no app has it on its classpath: its
        // metadata is read where its build wrote it. The reactor builds it before this module, as it does every
        // published module (PublishedArtifactsTest relies on the same).
        for (String module : ReactorPoms.publishedJarModules()) {
            if (ReactorPoms.isApp(module) && generatesMetadata(module)) {
                Path metadata = Documentation.ROOT.resolve(module).resolve("target/classes/META-INF/spring-configuration-metadata.json");
                assertThat(metadata).as("%s (build the whole reactor: mvn verify from the root)", metadata).isRegularFile();
                read(Files.readString(metadata));
                sources.add(metadata.toString());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void read(String json) {
        Map<String, Object> document = JsonPath.read(json, "$");
        for (Map<String, Object> property : (List<Map<String, Object>>) document.getOrDefault("properties", List.of())) {
            String name = (String) property.get("name");
            if (!name.startsWith("ratelimit.")) {
                continue; // management.endpoint.ratelimit.*: Spring Boot's own endpoint settings, documented by Spring Boot
            }
            properties.add(name);
            if (String.valueOf(property.get("type")).startsWith("java.util.Map<")) {
                mapProperties.add(name);
            }
            Object value = property.get("defaultValue");
            if (value instanceof Iterable<?> elements) {
                List<String> each = new ArrayList<>();
                elements.forEach(element -> each.add(String.valueOf(element)));
                defaults.put(name, each);
            } else if (value instanceof String text && text.startsWith("[") && text.endsWith("]")) {
                // How the processor writes the @DefaultValue of a record's list component: as its toString.
                defaults.put(name, List.of(text.substring(1, text.length() - 1).split(", ")));
            } else if (value != null) {
                defaults.put(name, List.of(String.valueOf(value)));
            }
        }
    }

    private static boolean generatesMetadata(String module) throws Exception {
        return Files.readString(Documentation.ROOT.resolve(module).resolve("pom.xml")).contains("spring-boot-configuration-processor");
    }

    /** Without this, a classpath that lost a module's metadata would make both checks pass on nothing. */
    @Test
    void theMetadataOfEveryModuleThatWritesSomeIsRead() throws Exception {
        for (String module : ReactorPoms.publishedJarModules()) {
            if (!ReactorPoms.isApp(module) && generatesMetadata(module)) {
                assertThat(sources).as("metadata of %s", module).anyMatch(source -> source.contains("/" + module + "/"));
            }
        }
        assertThat(properties).contains("ratelimit.enabled", "ratelimit.console.path", "ratelimit.api-index.report",
                "ratelimit.console.oidc.roles-claim");
    }

    @Test
    void everyPropertyOfTheMetadataHasARowInTheConfigurationReference() {
        Path reference = Documentation.ROOT.resolve("docs/configuration.md");
        Set<String> rows = new TreeSet<>();
        for (String line : Documentation.lines(reference)) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                rows.add(row.group(1));
            }
        }

        List<String> missing = new ArrayList<>();
        for (String property : properties) {
            // A map property (ratelimit.console.users) is documented by the rows of its entries' keys
            // (ratelimit.console.users.<name>.password).
            boolean documented = rows.contains(property)
                    || mapProperties.contains(property) && rows.stream().anyMatch(row -> row.startsWith(property + "."));
            if (!documented) {
                missing.add(property);
            }
        }
        assertThat(missing).as("properties of the metadata without a row in %s", Documentation.ROOT.relativize(reference)).isEmpty();
    }

    /**
     * A row gives the default the metadata gives: its default cell holds it (an enum's constant as an app writes it,
     * in lower case), so a default changed in code without the reference fails here.
     */
    @Test
    void everyDefaultOfTheMetadataIsTheReferences() {
        Path reference = Documentation.ROOT.resolve("docs/configuration.md");
        Map<String, String> cells = new TreeMap<>();
        for (String line : Documentation.lines(reference)) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                String[] parts = line.split("\\|");
                cells.put(row.group(1), parts.length > 2 ? parts[2] : "");
            }
        }
        assertThat(defaults).as("defaults in the metadata").containsKeys("ratelimit.enabled", "ratelimit.redis.max-wait");
        List<String> wrong = new ArrayList<>();
        defaults.forEach((property, values) -> {
            String cell = cells.get(property);
            if (cell != null && !values.stream().allMatch(value -> cell.toLowerCase(Locale.ROOT)
                    .contains(value.toLowerCase(Locale.ROOT)))) {
                wrong.add(property + ": the metadata says " + values + ", the reference" + cell);
            }
        });
        assertThat(wrong).as("defaults of %s that differ from the metadata's", Documentation.ROOT.relativize(reference)).isEmpty();
    }

    @Test
    void everyPropertyThePagesNameExists() throws Exception {
        Set<String> messageKeys = messageKeys();
        List<String> unknown = new ArrayList<>();
        for (Path page : Documentation.pages()) {
            // Code blocks count: a properties example is where a misspelt name does the most harm.
            List<String> lines = Documentation.lines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher name = NAME.matcher(lines.get(i));
                while (name.find()) {
                    if (!known(name.group(), messageKeys)) {
                        unknown.add(Documentation.ROOT.relativize(page) + ":" + (i + 1) + ": " + name.group());
                    }
                }
            }
        }
        assertThat(unknown).as("ratelimit.* names that are no property of the metadata, message key, meter or the like").isEmpty();
    }

    private static boolean known(String name, Set<String> messageKeys) {
        int wildcard = name.indexOf('*');
        if (wildcard >= 0) { // ratelimit.stats.*: a group of properties
            String prefix = name.substring(0, wildcard);
            return properties.stream().anyMatch(property -> property.startsWith(prefix));
        }
        return properties.contains(name)
                || mapProperties.stream().anyMatch(map -> name.startsWith(map + "."))
                || messageKeys.contains(name) // ratelimit.rejected, ratelimit.config.hashMissing...: texts an app may reword
                || NAMES_IN_CODE.contains(name)
                || MAVEN_PROPERTIES.contains(name);
    }

    /** The keys of the i18n module's bundle, which the guide names when it says how to reword a text. */
    private static Set<String> messageKeys() throws IOException {
        Properties bundle = new Properties();
        try (InputStream in = DocumentedPropertiesTest.class.getClassLoader().getResourceAsStream("ratelimit/messages.properties")) {
            assertThat(in).as("the i18n module's bundle on this classpath").isNotNull();
            bundle.load(in);
        }
        return bundle.stringPropertyNames();
    }

    /** The names allowed for not being properties are still in the code (or the build), so the allowance cannot go stale. */
    @Test
    void theNamesThatAreNoPropertiesAreStillInTheCode() throws Exception {
        StringBuilder mainSources = new StringBuilder();
        try (Stream<Path> files = Files.walk(Documentation.ROOT)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")
                    && path.toString().contains("/src/main/java/") && !path.toString().contains("/target/")).toList()) {
                mainSources.append(Files.readString(file));
            }
        }
        for (String name : NAMES_IN_CODE) {
            assertThat(mainSources.indexOf("\"" + name + "\"")).as("\"%s\" in the main sources", name).isNotNegative();
        }
        String rootPom = Files.readString(Documentation.ROOT.resolve("pom.xml"));
        for (String name : MAVEN_PROPERTIES) {
            assertThat(rootPom).as("the root pom's property %s", name).contains("<" + name + ">");
        }
    }
}
