package dev.ratelimit.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.logging.logback.LogbackLoggingSystem;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.SimpleMetadataReaderFactory;
import org.springframework.util.ClassUtils;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Adding our modules changes nothing in how the app caches, logs or writes JSON. This module's classpath is
 * an app's: Spring Boot's web starter and every published library module. What it brings is read from the
 * resolved jars themselves (their service registrations) and from Spring Boot's own auto-configuration (the
 * classes each cache and JSON converter configuration waits for), so a library that a new version of a
 * dependency pulls in is caught whatever its name.
 */
class HostClasspathTest {

    private static final ClassLoader LOADER = HostClasspathTest.class.getClassLoader();
    private static final PathMatchingResourcePatternResolver RESOURCES = new PathMatchingResourcePatternResolver(LOADER);

    /**
     * No published library module but the console brings a web layer: in an app without one (a batch job, a
     * consumer), Spring Web on the classpath would switch on Spring Boot's HTTP converter and client
     * auto-configurations, and the servlet API would make it a web app. The web app has them already; each
     * module's own dependencies on them are optional, provided or for its tests.
     */
    @Test
    void noModuleButTheConsoleBringsAWebLayer() throws Exception {
        for (String module : ReactorPoms.publishedJarModules()) {
            if (ReactorPoms.isApp(module) || module.equals("ratelimit-console")) {
                continue;
            }
            NodeList declared = ReactorPoms.pom(ReactorPoms.ROOT.resolve(module)).getElementsByTagName("dependency");
            for (int i = 0; i < declared.getLength(); i++) {
                Element dependency = (Element) declared.item(i);
                String artifact = ReactorPoms.text(dependency, "artifactId");
                boolean web = artifact.startsWith("spring-web") || artifact.contains("starter-web")
                        || artifact.startsWith("jakarta.servlet") || artifact.contains("tomcat");
                boolean brought = ReactorPoms.text(dependency, "scope").isEmpty()
                        && !ReactorPoms.text(dependency, "optional").equals("true");
                assertThat(web && brought).as("%s brings %s", module, artifact).isFalse();
            }
        }
    }

    /** Every library module we publish is on this classpath: a new one is checked without a new test. */
    @Test
    void everyPublishedLibraryModuleIsOnThisClasspath() throws Exception {
        Set<String> dependencies = new TreeSet<>();
        NodeList declared = ReactorPoms.pom(Path.of(".")).getElementsByTagName("dependency");
        for (int i = 0; i < declared.getLength(); i++) {
            Element dependency = (Element) declared.item(i);
            if (ReactorPoms.text(dependency, "groupId").equals("dev.ratelimit") && ReactorPoms.text(dependency, "scope").isEmpty()) {
                dependencies.add(ReactorPoms.text(dependency, "artifactId"));
            }
        }

        List<String> libraries = new ArrayList<>();
        for (String module : ReactorPoms.publishedJarModules()) {
            if (!ReactorPoms.isApp(module)) {
                libraries.add(module);
            }
        }

        assertThat(dependencies).as("the published modules, but the runnable apps").containsExactlyInAnyOrderElementsOf(libraries);
    }

    /**
     * No JCache provider: with one on the classpath Spring Boot's cache auto-configuration takes JCache, and
     * an app's caches silently change provider ({@code A Cache named [...] already exists}).
     */
    @Test
    void noJCacheProvider() throws IOException {
        assertThat(services("javax.cache.spi.CachingProvider")).isEmpty();
    }

    /**
     * Not Spring Boot's Redis: with its auto-configuration the app would get a {@code RedisConnectionFactory}, its
     * cache would move to Redis and its health would wait on Redis. The limiter opens a connection of its own.
     */
    @Test
    void noSpringBootRedisAutoConfiguration() {
        assertThat(ClassUtils.isPresent("org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration", LOADER))
                .isFalse();
    }

    /** No cache library that Spring Boot's cache auto-configuration would pick up. */
    @Test
    void noCacheLibraryThatSpringBootWouldPickUp() throws IOException {
        assertThat(presentLibraries("org/springframework/boot/cache/autoconfigure/*CacheConfiguration.class")).isEmpty();
    }

    /**
     * No Spring Data module: each registers a repository factory, and an app with one of its own (JPA, JDBC)
     * that finds a second puts its repositories in strict mode, where a repository is made only for an entity
     * annotated for its store. The limiter talks to Redis through Lettuce alone.
     */
    @Test
    void noSpringDataModule() throws IOException {
        assertThat(springFactories("org.springframework.data.repository.core.support.RepositoryFactorySupport"))
                .as("Spring Data repository factories").isEmpty();
        assertThat(ClassUtils.isPresent("org.springframework.data.redis.core.RedisTemplate", LOADER)).isFalse();
    }

    /** The JSON library of the web starter, Jackson, is the only one Spring MVC's converters would find. */
    @Test
    void noJsonLibraryBesidesTheWebStartersJackson() throws IOException {
        Map<String, Set<String>> present = presentLibraries(
                "org/springframework/boot/http/converter/autoconfigure/*HttpMessageConvertersConfiguration.class");

        assertThat(present.keySet()).containsExactly("JacksonHttpMessageConvertersConfiguration");
        assertThat(services("tools.jackson.databind.JacksonModule")).as("Jackson modules the app's mapper would find").isEmpty();
        assertThat(services("com.fasterxml.jackson.databind.Module")).as("Jackson 2 modules").isEmpty();
    }

    /** Logging stays Spring Boot's: Logback behind SLF4J, Log4j API and JUL bridged to it, nothing else bound. */
    @Test
    void loggingStaysSpringBootsLogback() throws IOException {
        assertThat(LoggingSystem.get(LOADER)).isInstanceOf(LogbackLoggingSystem.class);
        assertThat(services("org.slf4j.spi.SLF4JServiceProvider")).as("SLF4J backends")
                .containsExactly("ch.qos.logback.classic.spi.LogbackServiceProvider");
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).isEqualTo("ch.qos.logback.classic.LoggerContext");
        assertThat(resources("org/slf4j/impl/StaticLoggerBinder.class")).as("SLF4J 1 bindings").isEmpty();
        assertThat(services("org.apache.logging.log4j.spi.Provider")).as("Log4j API backends")
                .containsExactly("org.apache.logging.slf4j.SLF4JProvider");
        assertThat(ClassUtils.isPresent("org.apache.logging.log4j.core.LoggerContext", LOADER)).as("Log4j Core").isFalse();
    }

    /**
     * The auto-configurations in {@code pattern} whose {@code @ConditionalOnClass} (on the class or a nested one)
     * finds every class it names here, with those classes.
     */
    private static Map<String, Set<String>> presentLibraries(String pattern) throws IOException {
        Resource[] configurations = RESOURCES.getResources("classpath*:" + pattern);
        assertThat(configurations).as(pattern).isNotEmpty();
        SimpleMetadataReaderFactory readers = new SimpleMetadataReaderFactory(LOADER);
        Map<String, Set<String>> present = new TreeMap<>();
        for (Resource configuration : configurations) {
            MetadataReader reader = readers.getMetadataReader(configuration);
            List<AnnotationMetadata> classes = new ArrayList<>(List.of(reader.getAnnotationMetadata()));
            for (String nested : reader.getClassMetadata().getMemberClassNames()) {
                classes.add(readers.getMetadataReader(nested).getAnnotationMetadata());
            }
            for (AnnotationMetadata metadata : classes) {
                Map<String, Object> condition = metadata.getAnnotationAttributes(ConditionalOnClass.class.getName(), true);
                if (condition == null) {
                    continue;
                }
                Set<String> needed = new TreeSet<>(List.of((String[]) condition.get("value")));
                needed.addAll(List.of((String[]) condition.get("name")));
                if (needed.stream().allMatch(name -> ClassUtils.isPresent(name, LOADER))) {
                    present.computeIfAbsent(ClassUtils.getShortName(reader.getClassMetadata().getClassName()),
                            name -> new TreeSet<>()).addAll(needed);
                }
            }
        }
        return present;
    }

    /** The implementations registered for {@code service} by every jar, as {@link java.util.ServiceLoader} reads them. */
    private static List<String> services(String service) throws IOException {
        List<String> implementations = new ArrayList<>();
        for (URL file : resources("META-INF/services/" + service)) {
            try (InputStream in = file.openStream()) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(line -> line.replaceFirst("#.*", "").strip())
                        .filter(line -> !line.isEmpty()).forEach(implementations::add);
            }
        }
        return implementations;
    }

    /** The classes every jar registers for {@code key} in {@code META-INF/spring.factories}. */
    private static List<String> springFactories(String key) throws IOException {
        List<String> registered = new ArrayList<>();
        for (URL file : resources("META-INF/spring.factories")) {
            Properties factories = new Properties();
            try (InputStream in = file.openStream()) {
                factories.load(in);
            }
            String value = factories.getProperty(key);
            if (value != null) {
                for (String name : value.split(",")) {
                    registered.add(name.strip());
                }
            }
        }
        return registered;
    }

    private static List<URL> resources(String name) throws IOException {
        return Collections.list(LOADER.getResources(name));
    }
}
