package dev.ratelimit.interceptor.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import dev.ratelimit.interceptor.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What an operator set during an incident ({@link OperatorRules}) survives what incidents do to Redis,
 * with the shipped defaults and two instances under load: Redis restarted without persistence, flushed,
 * restarted with every instance (the database kept), and an operator's own removal is not undone. No
 * response may be decided by the declared limit in place of the operator's, nor be a 5xx; the config
 * hash comes back, and how long that took after Redis answered again is printed (the API index: {@code ApiIndexTest}).
 */
class RedisLossTest {

    /** What the tests allow from Redis answering again to the hash being back: the check interval is 1 s. */
    static final Duration BACK_WITHIN = Duration.ofSeconds(10);

    @RegisterExtension
    final RedisWithApps env = new RedisWithApps();

    @Test
    void redisRestartedEmptyUnderLoad() throws Exception {
        List<HttpProbe> instances = OperatorRules.startTwo(env);
        try (DecisionWatch watch = new DecisionWatch(instances, OperatorRules.expected(true))) {
            watch.awaitResponses(200);

            env.redis().restart();
            Duration back = OperatorRules.awaitBack(env.redis(), true, BACK_WITHIN);
            watch.awaitResponses(300);

            System.out.printf("Redis restarted empty: the config hash back %d ms after Redis "
                    + "answered again; %d responses checked%n", back.toMillis(), watch.responses());
            assertThat(watch.violations()).isEmpty();
        }
    }

    @Test
    void flushAllUnderLoad() throws Exception {
        List<HttpProbe> instances = OperatorRules.startTwo(env);
        try (DecisionWatch watch = new DecisionWatch(instances, OperatorRules.expected(true))) {
            watch.awaitResponses(200);

            env.redis().commands().flushall();
            Duration back = OperatorRules.awaitBack(env.redis(), true, BACK_WITHIN);
            watch.awaitResponses(300);

            System.out.printf("FLUSHALL: the config hash back %d ms after; %d responses checked%n",
                    back.toMillis(), watch.responses());
            assertThat(watch.violations()).isEmpty();
        }
    }

    /** An operator deletes the dyn rule (as the console does), then Redis loses the hash: the rule stays deleted. */
    @Test
    void anOperatorsRemovalIsNotUndoneByARestore() throws Exception {
        List<HttpProbe> instances = OperatorRules.startTwo(env);
        env.apps().get(1).getBean(SysConfigEditor.class).removeDynamicRule(OperatorRules.OPEN.toString());
        Awaitility.await("every instance dropped the dyn rule").atMost(OperatorRules.APPLIED)
                .until(() -> instances.stream().allMatch(instance -> instance.get("/open/plain?usercode=x")
                        .headers().firstValue("RateLimit-Policy").isEmpty()));
        try (DecisionWatch watch = new DecisionWatch(instances, OperatorRules.expected(false))) {
            watch.awaitResponses(100);

            env.redis().commands().flushall();
            OperatorRules.awaitBack(env.redis(), false, BACK_WITHIN);
            watch.awaitResponses(300);

            assertThat(env.redis().commands().hexists(OperatorRules.HASH, "dyn." + OperatorRules.OPEN)).isFalse();
            assertThat(watch.violations()).isEmpty();
        }
    }

    /**
     * Redis and every instance restart together, the database of the interception log kept: the first
     * instance puts the database's copy back, and its very first requests are decided by the operator's rules.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void redisAndEveryInstanceRestartedWithTheDatabaseKept(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = TestDatabase.create(kind)) {
            String[] database = {"spring.datasource.url=" + db.url(), "spring.datasource.username=" + db.user(),
                    "spring.datasource.password=", "ratelimit.log.initialize-schema=always"};
            OperatorRules.startTwo(env, database);
            String version = env.redis().commands().hget(OperatorRules.HASH, "config.version");
            Awaitility.await("the database's copy at the hash's version").atMost(OperatorRules.APPLIED)
                    .ignoreExceptions().until(() -> Long.parseLong(version)
                            == db.queryLong("SELECT config_version FROM biz_sys_ratelimit_config"));
            for (ConfigurableApplicationContext app : env.apps()) {
                env.stop(app);
            }

            env.redis().restart();
            List<HttpProbe> instances = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                instances.add(new HttpProbe(FixtureApplication.port(env.start(database))));
            }

            try (DecisionWatch watch = new DecisionWatch(instances, OperatorRules.expected(true))) {
                watch.awaitResponses(300);
                assertThat(watch.violations()).isEmpty();
            }
            assertThat(OperatorRules.awaitBack(env.redis(), true, BACK_WITHIN)).isLessThan(BACK_WITHIN);
            for (ConfigurableApplicationContext app : env.apps()) {
                env.stop(app); // before the database goes
            }
        }
    }
}
