package dev.ratelimit.console.autoconfigure;

import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.audit.AuditMapper;
import dev.ratelimit.interceptor.internal.instance.RunningInstance;
import dev.ratelimit.interceptor.internal.log.database.MapperHints;
import dev.ratelimit.console.report.HourCount;
import dev.ratelimit.console.report.LogPage;
import java.util.Set;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;

/**
 * What the console loads by name, for a native image: its Thymeleaf templates, its assets and the
 * ECharts script it serves, the audit mapper, and the types its pages read in their templates (Thymeleaf's
 * SpEL calls their accessors by reflection). The console's own model types are every record and enum
 * of its packages, found when the hints are made, so that a page's new type needs no line here; the
 * starter's types a page shows that no other hint covers, and the notes of a redirect, are named.
 */
class ConsoleRuntimeHints implements RuntimeHintsRegistrar {

    private static final String CONSOLE_PACKAGE = "dev.ratelimit.console";
    private static final Set<String> MODEL_SUPERCLASSES = Set.of(Record.class.getName(), Enum.class.getName());

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern("templates/ratelimit-console/*.html")
                .registerPattern("ratelimit-console/assets/*")
                .registerPattern(ConsoleAutoConfiguration.ECHARTS_DIST.substring("classpath:/".length())
                        + "echarts.min.js");
        MapperHints.register(hints, AuditMapper.class, AuditMapper.AuditRow.class);
        hints.reflection().registerTypes(TypeReference.listOf(LogPage.class, HourCount.class, RunningInstance.class, PageNotes.class),
                type -> type.withMembers(MemberCategory.INVOKE_PUBLIC_METHODS));
        ClassPathScanningCandidateComponentProvider models = new ClassPathScanningCandidateComponentProvider(false);
        models.addIncludeFilter((reader, readers) -> reader.getClassMetadata().hasSuperClass()
                && MODEL_SUPERCLASSES.contains(reader.getClassMetadata().getSuperClassName()));
        models.findCandidateComponents(CONSOLE_PACKAGE).forEach(model -> hints.reflection().registerType(
                TypeReference.of(model.getBeanClassName()), MemberCategory.INVOKE_PUBLIC_METHODS));
    }
}
