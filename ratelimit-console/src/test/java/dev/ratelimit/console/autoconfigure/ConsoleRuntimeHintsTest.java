package dev.ratelimit.console.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.audit.AuditMapper;
import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.console.rules.RuleLine;
import dev.ratelimit.console.report.LogPage;
import dev.ratelimit.interceptor.testsupport.RuntimeHintsCoverage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/**
 * The console's runtime hints cover every template and asset it ships, the ECharts script its pages load,
 * every mapper, and the records and enums its templates read.
 */
class ConsoleRuntimeHintsTest {

    private final RuntimeHints hints = RuntimeHintsCoverage.registered();

    @Test
    void everyTemplateAndAssetIsHinted() {
        List<String> templates = RuntimeHintsCoverage.resources("templates/ratelimit-console/", "**/*");
        assertThat(templates).contains("templates/ratelimit-console/login.html");
        assertResourcesHinted(templates);
        assertResourcesHinted(RuntimeHintsCoverage.resources("ratelimit-console/assets/", "**/*"));
        assertResourcesHinted(List.of("META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js"));
    }

    @Test
    void everyMapperIsHinted() {
        List<Class<?>> mappers = RuntimeHintsCoverage.classes("dev.ratelimit.console",
                type -> type.isInterface() && type.getSimpleName().endsWith("Mapper"));
        assertThat(mappers).contains(AuditMapper.class);
        mappers.forEach(mapper -> RuntimeHintsCoverage.assertMapperHinted(hints, mapper));
    }

    @Test
    void everyRecordAndEnumOfTheConsoleIsReadableFromATemplate() {
        List<Class<?>> models = RuntimeHintsCoverage.classes("dev.ratelimit.console",
                type -> type.isRecord() || type.isEnum());
        assertThat(models).contains(RuleLine.class, RuleLine.KnobLine.class, LogColumn.class);
        for (Class<?> model : models) {
            assertThat(RuntimeHintsPredicates.reflection().onType(model)
                    .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("%s", model).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LogPage.class, "rows")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PageNotes.class, "first")).accepts(hints);
    }

    private void assertResourcesHinted(List<String> paths) {
        for (String path : paths) {
            assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(hints);
        }
    }
}
