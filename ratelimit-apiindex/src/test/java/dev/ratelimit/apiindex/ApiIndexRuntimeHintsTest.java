package dev.ratelimit.apiindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.RuntimeHintsCoverage;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** The API index's runtime hints cover its Lua scripts and the JSON of its entries. */
class ApiIndexRuntimeHintsTest {

    private final RuntimeHints hints = RuntimeHintsCoverage.registered();

    @Test
    void everyLuaScriptIsHinted() {
        for (String script : RuntimeHintsCoverage.resources("dev/ratelimit/apiindex/", "**/*.lua")) {
            assertThat(RuntimeHintsPredicates.resource().forResource(script)).as(script).accepts(hints);
        }
    }

    @Test
    void anEntryIsHintedForJackson() {
        assertThat(RuntimeHintsPredicates.reflection().onType(ApiIndexEntry.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ApiIndexEntry.class, "pattern"))
                .accepts(hints);
    }
}
