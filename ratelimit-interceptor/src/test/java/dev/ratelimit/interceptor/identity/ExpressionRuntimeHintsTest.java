package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.RuntimeHintsCoverage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** What the limits' SpEL expressions call on the request and the response is hinted for a native image. */
class ExpressionRuntimeHintsTest {

    private final RuntimeHints hints = RuntimeHintsCoverage.registered();

    @Test
    void anExpressionMayCallTheGuardedRequestAndTheResponse() {
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ParameterGuard.class, "getParameter"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HttpServletRequest.class, "getHeader"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HttpServletResponse.class, "getStatus"))
                .accepts(hints);
    }
}
