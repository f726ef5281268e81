package dev.ratelimit.interceptor.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EndpointCatalogNamingTest {

    private final EndpointCatalog catalog = new EndpointCatalog(RuleNaming.of(null, "app-orders"),
            EnumSet.allOf(Algorithm.class), key -> { }, countWhen -> { }, cost -> { }, ShippedDefaults.LEASE);

    @Test
    void namesEndpointsAndStackedLimits() throws Exception {
        catalog.registerHandlers(List.of(new HttpHandler(Controllers.class, method("stacked"), List.of("/orders"), Set.of())));

        Endpoint endpoint = catalog.endpoints().get(0);
        assertThat(endpoint.id()).hasToString("orders.Controllers.stacked");
        assertThat(endpoint.primaryPattern()).isEqualTo("/orders");
        assertThat(endpoint.limits()).extracting(limit -> limit.id().toString())
                .containsExactly("orders.Controllers.stacked#user", "orders.Controllers.stacked#ip");
        assertThat(endpoint.limits().get(0).windowSeconds()).isEqualTo(60);
    }

    @Test
    void explicitNamesWin() throws Exception {
        Endpoint endpoint = catalog.handlerEndpoint(Controllers.class, method("named"));
        assertThat(endpoint.limits()).extracting(limit -> limit.id().toString()).containsExactly("billing.pay");
    }

    @Test
    void failsTheStartForMisdeclaredLimitsNamingTheMethod() {
        assertThatThrownBy(() -> catalog.handlerEndpoint(Controllers.class, method("twoUserLimits")))
                .hasMessageContaining("Controllers.twoUserLimits").hasMessageContaining("rule =");
        assertThatThrownBy(() -> catalog.handlerEndpoint(Controllers.class, method("zeroCount")))
                .hasMessageContaining("Controllers.zeroCount").hasMessageContaining("count and window must both be at least 1, got 0 per 1 s");
        assertThatThrownBy(() -> catalog.handlerEndpoint(Controllers.class, method("subSecond")))
                .hasMessageContaining("count and window must both be at least 1, got 1 per 0 s");
    }

    @Test
    void moduleNameComesFromTheApplicationName() {
        assertThat(RuleNaming.of(null, "app-orders").module()).isEqualTo("orders");
        assertThat(RuleNaming.of(" billing ", "app-orders").module()).isEqualTo("billing");
        assertThat(RuleNaming.of(null, "inventory").module()).isEqualTo("inventory");
        assertThat(RuleNaming.of(null, "app-").module()).isEqualTo("app-");
        assertThat(RuleNaming.of(null, null).module()).isEqualTo("app");
    }

    private static Method method(String name) throws NoSuchMethodException {
        return Controllers.class.getMethod(name);
    }

    static class Controllers {

        @RateLimit(count = 5, interval = 1, unit = java.util.concurrent.TimeUnit.MINUTES)
        @RateLimit(count = 50, interval = 60, dimension = Dimension.IP)
        public void stacked() {
        }

        @RateLimit(module = "billing", rule = "pay", count = 2)
        public void named() {
        }

        @RateLimit(count = 5)
        @RateLimit(count = 50, interval = 60)
        public void twoUserLimits() {
        }

        @RateLimit(count = 0)
        public void zeroCount() {
        }

        @RateLimit(interval = 500, unit = java.util.concurrent.TimeUnit.MILLISECONDS)
        public void subSecond() {
        }
    }
}
