package dev.ratelimit.interceptor.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.RuleId;
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

    /** A rule the operator's incident rules leave alone, for writes of the tests' own. */
    private static final RuleId IP_RULE = RuleId.of("fixture", "LimitedController.ip");

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
     * Once the durable copy was written moments after a write, by the instances' next read, so a hash lost
     * in between took the write with it for good: the instances put back their snapshots, older than the
     * write, and the copy kept those. Now a write returns once the database holds it: Redis is flushed
     * right after each of several writes, and each written value comes back and is applied on both instances.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void aWriteFlushedRightAfterItReturnedComesBackFromTheDatabase(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = TestDatabase.create(kind)) {
            OperatorRules.startTwo(env, database(db));
            SysConfigEditor editor = env.apps().get(1).getBean(SysConfigEditor.class);
            for (int round = 1; round <= 5; round++) {
                long count = 10L + round;
                editor.setRuleCount(IP_RULE, Long.toString(count));
                env.redis().commands().flushall();

                Awaitility.await("round " + round + ": the write back in Redis and applied on both instances")
                        .atMost(BACK_WITHIN).ignoreExceptions().until(() ->
                                Long.toString(count).equals(env.redis().commands().hget(OperatorRules.HASH,
                                        IP_RULE + ".count"))
                                && env.apps().stream().allMatch(app -> app.getBean(RuleCatalog.class).current()
                                        .limit(IP_RULE).map(limit -> limit.count() == count).orElse(false)));
                assertThat(OperatorRules.isBack(env.redis(), true)).as("the operator's earlier rules").isTrue();
            }
            for (ConfigurableApplicationContext app : env.apps()) {
                env.stop(app); // before the database goes
            }
        }
    }

    /**
     * The database refusing the copy fails no write: the operator's write is applied on every instance and
     * acknowledged (Redis and the snapshots hold it), and the copy takes it at a read once the database answers.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void aWriteTheDatabaseRefusesIsAppliedAndKeptOnceItAnswers(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = TestDatabase.create(kind)) {
            ConfigurableApplicationContext app = env.start(database(db));
            SysConfigEditor editor = app.getBean(SysConfigEditor.class);
            editor.setRuleCount(IP_RULE, "7");
            db.execute("ALTER TABLE biz_sys_ratelimit_config RENAME TO biz_sys_ratelimit_config_away");

            assertThat(editor.setRuleCount(IP_RULE, "8").newValue()).isEqualTo("8");
            Awaitility.await("applied").atMost(OperatorRules.APPLIED).until(() -> app.getBean(RuleCatalog.class)
                    .current().limit(IP_RULE).map(limit -> limit.count() == 8).orElse(false));

            db.execute("ALTER TABLE biz_sys_ratelimit_config_away RENAME TO biz_sys_ratelimit_config");
            app.getBean(RuleSnapshotHolder.class).refresh();
            long version = Long.parseLong(env.redis().commands().hget(OperatorRules.HASH, "config.version"));
            Awaitility.await("the copy at the write's version").atMost(OperatorRules.APPLIED).until(() ->
                    db.queryLong("SELECT config_version FROM biz_sys_ratelimit_config") == version);
            env.stop(app); // before the database goes
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
            String[] database = database(db);
            OperatorRules.startTwo(env, database);
            env.apps().get(0).getBean(SysConfigEditor.class).setRuleCount(IP_RULE, "9");
            assertThat(db.queryLong("SELECT config_version FROM biz_sys_ratelimit_config"))
                    .as("the database's copy, as soon as the write returned")
                    .isEqualTo(Long.parseLong(env.redis().commands().hget(OperatorRules.HASH, "config.version")));
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
            assertThat(env.apps().get(0).getBean(RuleCatalog.class).current().limit(IP_RULE))
                    .hasValueSatisfying(limit -> assertThat(limit.count()).isEqualTo(9L));
            for (ConfigurableApplicationContext app : env.apps()) {
                env.stop(app); // before the database goes
            }
        }
    }

    /** The properties of an app whose interception log, and so the durable copy, is in {@code db}. */
    private static String[] database(TestDatabase db) {
        return new String[] {"spring.datasource.url=" + db.url(), "spring.datasource.username=" + db.user(),
                "spring.datasource.password=", "ratelimit.log.initialize-schema=always"};
    }
}
