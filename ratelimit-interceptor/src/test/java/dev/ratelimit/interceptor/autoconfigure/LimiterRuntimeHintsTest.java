package dev.ratelimit.interceptor.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.actuate.RateLimitAdviceEndpoint;
import dev.ratelimit.interceptor.actuate.RateLimitEndpoint;
import dev.ratelimit.interceptor.advice.LimitAdvice;
import dev.ratelimit.interceptor.advice.RequestWindows;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.store.StoreDescription;
import dev.ratelimit.interceptor.testsupport.RuntimeHintsCoverage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/**
 * The starter's runtime hints, as AOT processing finds them in {@code aot.factories}, cover every Lua
 * script, SQL script and message bundle it ships, every MyBatis mapper, and the actuator report.
 */
class LimiterRuntimeHintsTest {

    private final RuntimeHints hints = RuntimeHintsCoverage.registered();

    @Test
    void everyLuaScriptIsHinted() {
        assertResourcesHinted(RuntimeHintsCoverage.resources("dev/ratelimit/interceptor/", "**/*.lua"));
    }

    @Test
    void everySqlScriptIsHinted() {
        assertResourcesHinted(RuntimeHintsCoverage.resources("ratelimit/sql/", "**/*.sql"));
    }

    @Test
    void everyMessageBundleIsHinted() {
        List<String> bundles = RuntimeHintsCoverage.resources("ratelimit/", "messages*.properties");
        assertThat(bundles).contains("ratelimit/messages_zh_CN.properties");
        assertResourcesHinted(bundles);
    }

    @Test
    void everyMapperIsHinted() {
        List<Class<?>> mappers = RuntimeHintsCoverage.classes("dev.ratelimit.interceptor",
                type -> type.isInterface() && type.getSimpleName().endsWith("Mapper"));
        // the log writer's and the durable copy's (the reports' are the console's, hinted there)
        assertThat(mappers).hasSizeGreaterThanOrEqualTo(2);
        mappers.forEach(mapper -> RuntimeHintsCoverage.assertMapperHinted(hints, mapper));
    }

    @Test
    void theActuatorReportIsHintedForJackson() {
        for (Class<?> type : List.of(RateLimitEndpoint.Report.class, RateLimitEndpoint.SnapshotReport.class,
                RuleDescription.class, LimitDescription.class, StoreDescription.class, BlockedClient.class,
                DenyList.Entry.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(type)).as("%s", type).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RuleDescription.class, "inForce"))
                .accepts(hints);
    }

    /** The advice endpoint answers {@code Object}: Spring Boot's own hints for endpoints cannot see its types. */
    @Test
    void theAdviceIsHintedForJackson() {
        for (Class<?> type : List.of(LimitAdvice.class, LimitAdvice.Point.class, LimitAdvice.Client.class,
                RateLimitAdviceEndpoint.RulesAdvice.class, RateLimitAdviceEndpoint.WindowsAdvice.class,
                RequestWindows.class, RequestWindows.Window.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(type)).as("%s", type).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LimitAdvice.class, "curve")).accepts(hints);
    }

    private void assertResourcesHinted(List<String> paths) {
        for (String path : paths) {
            assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(hints);
        }
    }
}
