package dev.ratelimit.interceptor.internal.log.database;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;

/**
 * What a native image needs for a mapper registered with {@link LogDatabase#addMapper}: MyBatis implements
 * the interface with a JDK proxy, reads its methods' annotations and parameter names, parses the XML of
 * the same name beside it, and builds and reads the rows by reflection (a record through its canonical
 * constructor and its accessors).
 */
public final class MapperHints {

    private MapperHints() {
    }

    /** @param rows the types the mapper's statements read or write: rows, parameter objects, their enums */
    public static void register(RuntimeHints hints, Class<?> mapper, Class<?>... rows) {
        hints.proxies().registerJdkProxy(mapper);
        hints.reflection().registerType(mapper, MemberCategory.INVOKE_PUBLIC_METHODS);
        String xml = mapper.getName().replace('.', '/') + ".xml";
        hints.resources().registerPatternIfPresent(mapper.getClassLoader(), xml, pattern -> pattern.includes(xml));
        for (Class<?> row : rows) {
            hints.reflection().registerType(row, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
                    MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.ACCESS_DECLARED_FIELDS);
        }
    }
}
