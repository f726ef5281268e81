package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratelimit.interceptor.fixture.ClassLimitedController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.SharedClassLimitController;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @RateLimit} on a controller class, over two instances on one Redis with 64 concurrent clients:
 * each method without a limit of its own gets the class's, counted on its own; a method's own limit
 * replaces the class's; an exempt method is not limited; a named class limit is one counter for all.
 */
class ClassLevelLimitTest {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    private static List<HttpProbe> instances;

    @BeforeAll
    static void start() {
        instances = List.of(env.start(), env.start()).stream().map(app -> new HttpProbe(FixtureApplication.port(app)))
                .toList();
    }

    @Test
    void eachMethodWithoutALimitOfItsOwnCountsTheClassLimitOnItsOwn() throws Exception {
        assertThat(admitted("/classwide/first?usercode=una")).isEqualTo(ClassLimitedController.CLASS_LIMIT);
        assertThat(admitted("/classwide/second?usercode=una")).as("a counter of its own")
                .isEqualTo(ClassLimitedController.CLASS_LIMIT);
    }

    @Test
    void aMethodsOwnLimitReplacesTheClassLimit() throws Exception {
        assertThat(admitted("/classwide/own?usercode=una")).isEqualTo(ClassLimitedController.OWN_LIMIT);
    }

    @Test
    void anExemptMethodIsNotLimited() {
        IntStream.range(0, ClassLimitedController.CLASS_LIMIT * 3).forEach(i ->
                assertThat(instances.get(i % 2).status("/classwide/exempt?usercode=una")).isEqualTo(200));
    }

    @Test
    void aNamedClassLimitIsOneCounterForEveryMethod() throws Exception {
        int admitted = ConcurrentClients.admitted(64, 1, thread -> TwoInstanceConcurrencyTest.admitted(
                instances.get(thread % 2), (thread % 4 < 2 ? "/reports/daily" : "/reports/monthly") + "?usercode=una"));

        assertThat(admitted).isEqualTo(SharedClassLimitController.LIMIT);
    }

    @Test
    void theCatalogSaysWhereALimitIsDeclared() {
        Map<String, Endpoint> endpoints = env.apps().get(0).getBean(EndpointCatalog.class).endpoints().stream()
                .collect(Collectors.toMap(endpoint -> endpoint.id().rule(), Function.identity()));

        Endpoint first = endpoints.get("ClassLimitedController.first");
        assertThat(first.limitsFromClass()).isTrue();
        assertThat(first.limits()).extracting(limit -> limit.id().toString(), LimitDefinition::count)
                .containsExactly(tuple("fixture.ClassLimitedController.first",
                        (long) ClassLimitedController.CLASS_LIMIT));
        assertThat(endpoints.get("ClassLimitedController.own").limitsFromClass()).isFalse();
        assertThat(endpoints.get("ClassLimitedController.exempt")).as("exempt: not in the catalog").isNull();
        assertThat(endpoints.get("SharedClassLimitController.daily").limits()).extracting(limit -> limit.id().toString())
                .containsExactly("fixture." + SharedClassLimitController.RULE);
    }

    private static int admitted(String path) throws Exception {
        return ConcurrentClients.admitted(64, 1, thread -> TwoInstanceConcurrencyTest.admitted(instances.get(thread % 2),
                path));
    }
}
