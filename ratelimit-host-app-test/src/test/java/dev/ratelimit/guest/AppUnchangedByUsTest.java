package dev.ratelimit.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The app with every module of ours is, to Spring Boot, the app without them: the same cache manager, locale
 * resolver, message source, error handling, JSON, task executors and health contributors, no Redis connection of
 * Spring Boot's, and the same auto-configurations matched (ours aside).
 *
 * <p>Each app runs in a class loader of its own over its runtime classpath, as Maven resolves it: without us, the
 * app's own ({@code ratelimit-host-app}); with us, this module's, which adds our modules and everything they bring.
 * Excluding our auto-configuration would not do: what our dependencies put on the classpath (a Redis starter, a
 * cache or JSON library) changes Spring Boot's choices by itself.
 */
@EnabledIfSystemProperty(named = RedisForTheApp.MODE, matches = "running", disabledReason = "once is enough")
class AppUnchangedByUsTest {

    /**
     * Lazily and not serving (port -1: a servlet web app without its server), since what is read here is decided
     * while the context is built: two full starts in cold class loaders would cost the build more than the rest of
     * this module's tests. The app's suite starts the app with us in full, beans, server and all.
     */
    /**
     * What Spring Boot matches for a class of our dependencies alone, and which acts on nothing of the app's:
     * Lettuce, the limiter's Redis client, needs Reactor, whose presence gives the app a reactive health registry
     * beside its own (empty: the app has no reactive indicator). Said in docs/getting-started.md.
     */
    private static final Set<String> CLASSPATH_ONLY = Set.of(
            "matched org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration"
                    + "$ReactiveHealthContributorRegistryConfiguration",
            "matched org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration"
                    + "$ReactiveHealthContributorRegistryConfiguration#reactiveHealthContributorRegistry");

    private static final String[] ARGS = {"--server.port=-1", "--spring.main.lazy-initialization=true",
            "--spring.main.banner-mode=off"};

    @Test
    void springBootConfiguresTheAppAsWithoutUs() throws Exception {
        // The two start side by side: each is a cold start in a class loader of its own, and the build's second core
        // is idle while this module's tests run.
        List<URL> appAlone = classpath(Path.of("../ratelimit-host-app/target"),
                Path.of("../ratelimit-host-app/target/classes"));
        FutureTask<Map<String, String>> withoutUs = new FutureTask<>(() -> facts(appAlone));
        new Thread(withoutUs, "app-without-us").start();
        Map<String, String> with = facts(classpath(Path.of("target")));
        Map<String, String> without = withoutUs.get();

        List<String> differences = new ArrayList<>();
        for (String key : new TreeSet<>(union(without.keySet(), with.keySet()))) {
            if (!Objects.equals(without.get(key), with.get(key)) && !CLASSPATH_ONLY.contains(key)) {
                differences.add(key + "\n    without us: " + without.get(key) + "\n    with us:    " + with.get(key));
            }
        }

        assertThat(without).as("the facts read").containsKey("beans of org.springframework.cache.CacheManager")
                .containsEntry("matched org.springframework.boot.cache.autoconfigure.JCacheCacheConfiguration", "yes");
        assertSoftly(softly -> {
            softly.assertThat(with.get("beans of org.springframework.data.redis.connection.RedisConnectionFactory"))
                    .as("Spring Boot's Redis connection, which would change the app's cache and health").isEqualTo("{}");
            softly.assertThat(differences).as("what our modules change in the app").isEmpty();
        });
    }

    private static TreeSet<String> union(Set<String> a, Set<String> b) {
        TreeSet<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** The runtime classpath Maven wrote into {@code target}, and {@code more} first. */
    private static List<URL> classpath(Path target, Path... more) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (Path path : more) {
            urls.add(path.toUri().toURL());
        }
        String written = Files.readString(target.resolve("runtime-classpath.txt")).strip();
        for (String entry : written.split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        return urls;
    }

    /** Starts the app on {@code classpath} (and this class's own directory, for {@link ContextFacts}) and reads it. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> facts(List<URL> classpath) throws Exception {
        List<URL> urls = new ArrayList<>(classpath);
        urls.add(ContextFacts.class.getProtectionDomain().getCodeSource().getLocation());
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader("app", urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            return (Map<String, String>) loader.loadClass(ContextFacts.class.getName()).getMethod("of", String[].class)
                    .invoke(null, (Object) ARGS);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }
}
