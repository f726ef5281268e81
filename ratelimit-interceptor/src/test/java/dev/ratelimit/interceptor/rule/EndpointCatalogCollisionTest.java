package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.collision.a.TwinController;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Colliding names are resolved the same way whatever order the handler mapping lists its methods in. */
@ExtendWith(OutputCaptureExtension.class)
class EndpointCatalogCollisionTest {

    @Test
    void namesDoNotDependOnTheOrderOfRegistrationAndTheWarningNamesBothHandlers(CapturedOutput output)
            throws Exception {
        List<HttpHandler> handlers = List.of(
                handler(new TwinController(), TwinController.class.getMethod("twin"), "/a/twin"),
                handler(new TwinController(), TwinController.class.getMethod("twin", String.class), "/a/twin/named"),
                handler(new dev.ratelimit.interceptor.collision.b.TwinController(),
                        dev.ratelimit.interceptor.collision.b.TwinController.class.getMethod("twin"), "/b/twin"));
        List<HttpHandler> reversed = new ArrayList<>(handlers);
        Collections.reverse(reversed);

        assertThat(rulesRegisteredInOrder(reversed)).isEqualTo(rulesRegisteredInOrder(handlers))
                .containsExactly("TwinController.twin", "TwinController.twin~2", "TwinController.twin~3");
        assertThat(output).contains("Handler methods dev.ratelimit.interceptor.collision.a.TwinController.twin() and "
                + "dev.ratelimit.interceptor.collision.a.TwinController.twin(java.lang.String) both derive the rate "
                + "limit rule name 'shop.TwinController.twin'; the second is named 'shop.TwinController.twin~2'");
        assertThat(output).contains("Handler methods dev.ratelimit.interceptor.collision.a.TwinController.twin() and "
                + "dev.ratelimit.interceptor.collision.b.TwinController.twin() both derive");
    }

    /** The rule names of the handlers, in the order of {@code handlers} as first given. */
    private static List<String> rulesRegisteredInOrder(List<HttpHandler> order) {
        EndpointCatalog catalog = new EndpointCatalog(new RuleNaming("shop"), Set.of(Algorithm.FIXED_WINDOW), key -> { },
                countWhen -> { }, cost -> { }, ShippedDefaults.LEASE);
        catalog.registerHandlers(order);
        return catalog.endpoints().stream().sorted(Comparator.comparing(Endpoint::handler))
                .map(endpoint -> endpoint.id().rule()).toList();
    }

    private static HttpHandler handler(Object controller, Method method, String path) {
        return new HttpHandler(controller.getClass(), method, List.of(path), Set.of());
    }
}
