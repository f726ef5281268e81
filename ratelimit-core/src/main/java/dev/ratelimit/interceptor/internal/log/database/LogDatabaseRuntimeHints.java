package dev.ratelimit.interceptor.internal.log.database;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The DDL {@link LogDatabase} runs by name, and the MyBatis classes its {@code Configuration} makes by
 * reflection (the language drivers of the statements, the logger MyBatis picks for SLF4J), for a native image.
 * MyBatis is optional: its classes are named, and hinted only where they are present.
 */
class LogDatabaseRuntimeHints implements RuntimeHintsRegistrar {

    private static final List<String> MADE_BY_MYBATIS = List.of(
            "org.apache.ibatis.scripting.xmltags.XMLLanguageDriver",
            "org.apache.ibatis.scripting.defaults.RawLanguageDriver",
            "org.apache.ibatis.logging.slf4j.Slf4jImpl");

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(LogDatabase.SCHEMA_LOCATION + "*.sql")
                .registerPattern(LogDatabase.SCHEMA_LOCATION + "upgrade/*.sql");
        for (String type : MADE_BY_MYBATIS) {
            hints.reflection().registerTypeIfPresent(classLoader, type, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
        }
    }
}
