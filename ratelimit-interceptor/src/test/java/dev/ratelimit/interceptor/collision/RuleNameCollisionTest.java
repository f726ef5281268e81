package dev.ratelimit.interceptor.collision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Handler methods whose derived rule names collide are named apart and counted apart, through real HTTP. */
class RuleNameCollisionTest {

    private static final String A = "dev.ratelimit.interceptor.collision.a.TwinController.";
    private static final String B = "dev.ratelimit.interceptor.collision.b.TwinController.";

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();
    private static ConfigurableApplicationContext app;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        app = env.start(CollisionApplication.class);
        http = new HttpProbe(FixtureApplication.port(app));
    }

    @BeforeEach
    void emptyRedis() {
        env.redis().emptyAll();
        assertThat(app.getBean(RuleSnapshotHolder.class).refresh()).isTrue();
    }

    @Test
    void theFirstHandlerInClassAndSignatureOrderKeepsThePlainNameTheOthersGetANumber() {
        Map<String, String> rules = app.getBean(EndpointCatalog.class).endpoints().stream()
                .filter(endpoint -> endpoint.handler().contains(".TwinController."))
                .collect(Collectors.toMap(Endpoint::handler, endpoint -> endpoint.id().rule()));

        assertThat(rules).containsOnly(
                Map.entry(A + "twin()", "TwinController.twin"),
                Map.entry(A + "twin(java.lang.String)", "TwinController.twin~2"),
                Map.entry(B + "open()", "TwinController.open"),
                Map.entry(B + "open(java.lang.String)", "TwinController.open~2"),
                Map.entry(B + "twin()", "TwinController.twin~3"));
        assertThat(app.getBean(EndpointCatalog.class).endpoints().stream()
                .flatMap(endpoint -> endpoint.limits().stream()).map(limit -> limit.id().toString()))
                .containsExactlyInAnyOrder("fixture.TwinController.twin", "fixture.TwinController.twin~2",
                        "fixture.TwinController.twin~3");
    }

    @Test
    void collidingHandlersAreCountedSeparately() {
        for (String path : new String[] {"/a/twin", "/a/twin/named?name=x", "/b/twin"}) {
            String separator = path.contains("?") ? "&" : "?";
            assertThat(http.status(path + separator + "usercode=ann")).as(path).isEqualTo(200);
            assertThat(http.status(path + separator + "usercode=ann")).as(path).isEqualTo(429);
        }
        assertThat(env.redis().commands().keys("ratelimit:counter:*")).containsExactlyInAnyOrder(
                "ratelimit:counter:fixture:TwinController.twin:USER:ann",
                "ratelimit:counter:fixture:TwinController.twin~2:USER:ann",
                "ratelimit:counter:fixture:TwinController.twin~3:USER:ann");
    }

    @Test
    void aDynamicRuleAddressesOneOfTheCollidingHandlersOnly() {
        env.redis().commands().hset("ratelimit:sysconfig", "dyn.fixture.TwinController.open~2", "1/60");
        assertThat(app.getBean(RuleSnapshotHolder.class).refresh()).isTrue();

        assertThat(http.status("/b/open/named?name=x&usercode=bo")).isEqualTo(200);
        assertThat(http.status("/b/open/named?name=x&usercode=bo")).isEqualTo(429);
        assertThat(http.status("/b/open?usercode=bo")).isEqualTo(200);
        assertThat(http.status("/b/open?usercode=bo")).isEqualTo(200);
    }
}
