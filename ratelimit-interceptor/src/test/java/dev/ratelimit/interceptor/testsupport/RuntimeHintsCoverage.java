package dev.ratelimit.interceptor.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.util.ClassUtils;

/**
 * Checks runtime hints against what is really on the classpath: the resources and classes are found by
 * scanning, so a script, template or mapper added without a hint fails the test that asks.
 */
public final class RuntimeHintsCoverage {

    private static final PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();

    private RuntimeHintsCoverage() {
    }

    /** The hints of every registrar that {@code META-INF/spring/aot.factories} lists, applied as AOT processing applies them. */
    public static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        ClassLoader classLoader = RuntimeHintsCoverage.class.getClassLoader();
        AotServices.factories(classLoader).load(RuntimeHintsRegistrar.class)
                .forEach(registrar -> registrar.registerHints(hints, classLoader));
        return hints;
    }

    /**
     * The main (not test) resources under {@code root} that match {@code pattern}, as paths from the
     * classpath root; never empty, so that a pattern gone stale does not pass for want of anything to check.
     */
    public static List<String> resources(String root, String pattern) {
        List<String> paths = new ArrayList<>();
        for (Resource resource : main(root + pattern)) {
            String url = url(resource);
            paths.add(url.substring(url.lastIndexOf(root)));
        }
        assertThat(paths).as("resources %s%s on the classpath", root, pattern).isNotEmpty();
        return paths;
    }

    /** The main (not test) classes in the package {@code root} and below that {@code filter} keeps. */
    public static List<Class<?>> classes(String root, Predicate<Class<?>> filter) {
        CachingMetadataReaderFactory readers = new CachingMetadataReaderFactory(resolver);
        List<Class<?>> classes = new ArrayList<>();
        for (Resource resource : main(root.replace('.', '/') + "/**/*.class")) {
            try {
                String name = readers.getMetadataReader(resource).getClassMetadata().getClassName();
                Class<?> type = ClassUtils.forName(name, RuntimeHintsCoverage.class.getClassLoader());
                if (filter.test(type)) {
                    classes.add(type);
                }
            } catch (IOException | ClassNotFoundException e) {
                throw new IllegalStateException("Cannot read " + resource, e);
            }
        }
        return classes;
    }

    /**
     * Asserts what MyBatis needs of a mapper in a native image: the JDK proxy, its methods, the XML beside
     * it if there is one, and every type of the project in its methods' signatures (rows, parameter objects),
     * built and read by reflection.
     */
    public static void assertMapperHinted(RuntimeHints hints, Class<?> mapper) {
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(mapper)).as("proxy of %s", mapper).accepts(hints);
        for (Method method : mapper.getDeclaredMethods()) {
            assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).as("%s", method).accepts(hints);
        }
        String xml = mapper.getName().replace('.', '/') + ".xml";
        if (new ClassPathResource(xml).exists()) {
            assertThat(RuntimeHintsPredicates.resource().forResource(xml)).as(xml).accepts(hints);
        }
        for (Class<?> row : signatureTypes(mapper)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(row).withMemberCategories(
                    MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_METHODS,
                    MemberCategory.ACCESS_DECLARED_FIELDS)).as("%s, read or written by %s", row, mapper).accepts(hints);
        }
    }

    private static Set<Class<?>> signatureTypes(Class<?> mapper) {
        Set<Class<?>> types = new LinkedHashSet<>();
        for (Method method : mapper.getDeclaredMethods()) {
            collect(ResolvableType.forMethodReturnType(method), types);
            for (int i = 0; i < method.getParameterCount(); i++) {
                collect(ResolvableType.forMethodParameter(method, i), types);
            }
        }
        return types;
    }

    private static void collect(ResolvableType type, Set<Class<?>> types) {
        Class<?> resolved = type.resolve();
        if (resolved != null && resolved.getName().startsWith("dev.ratelimit.")) {
            types.add(resolved);
        }
        for (ResolvableType generic : type.getGenerics()) {
            collect(generic, types);
        }
    }

    private static List<Resource> main(String pattern) {
        try {
            List<Resource> found = new ArrayList<>();
            for (Resource resource : resolver.getResources("classpath*:" + pattern)) {
                String url = url(resource);
                // what ships needs hints; the fixtures of this module's tests and of test-jars do not
                if (!url.contains("/test-classes/") && !url.contains("-tests.jar")) {
                    found.add(resource);
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String url(Resource resource) {
        try {
            return resource.getURL().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
