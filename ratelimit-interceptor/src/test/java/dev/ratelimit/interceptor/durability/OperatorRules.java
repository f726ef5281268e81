package dev.ratelimit.interceptor.durability;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What an operator sets during an incident, on the fixture app: {@code /user} lowered from the declared 50
 * to 2 per minute, {@code /open/plain} (no annotation) limited to 1 per minute by a {@code dyn} rule, and
 * {@code /short} switched off. Each response tells which limit decided it ({@code RateLimit-Policy}), so
 * every one can be checked against these.
 */
final class OperatorRules {

    static final RuleId USER = RuleId.of("fixture", "LimitedController.user");
    static final RuleId OPEN = RuleId.of("fixture", "OpenController.plain");
    static final RuleId SHORT = RuleId.of("fixture", "LimitedController.shortWindow");
    static final String HASH = "ratelimit:sysconfig";
    static final Duration APPLIED = Duration.ofSeconds(10);

    private OperatorRules() {
    }

    /**
     * Two instances of the fixture app on the environment's Redis, once they have merged their
     * declarations, with the operator's rules set and applied on both. (The API index is not part of this
     * module; its own tests see it come back.)
     */
    static List<HttpProbe> startTwo(RedisWithApps env, String... properties) {
        List<HttpProbe> instances = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            instances.add(new HttpProbe(FixtureApplication.port(env.start(properties))));
        }
        Awaitility.await("the apps' declarations in Redis").atMost(Duration.ofSeconds(30))
                .until(() -> env.redis().commands().hexists(HASH, "declared." + USER + ".count"));
        set(env.apps());
        return instances;
    }

    /** Sets them through the editor, as the console does, and waits until every instance applies them. */
    static void set(List<ConfigurableApplicationContext> apps) {
        SysConfigEditor editor = apps.get(0).getBean(SysConfigEditor.class);
        editor.setRuleCount(USER, "2");
        editor.setDynamicRule(OPEN, "1/60");
        editor.setRuleSwitch(SHORT, false);
        Awaitility.await("every instance applies the operator's rules").atMost(APPLIED)
                .until(() -> apps.stream().allMatch(app -> applied(app.getBean(RuleCatalog.class).current())));
    }

    private static boolean applied(RulesInForce rules) {
        return rules.limit(USER).map(limit -> limit.count() == 2).orElse(false)
                && rules.rule(OPEN).map(rule -> rule.source() == RuleDescription.Source.DYN).orElse(false)
                && rules.limit(SHORT).isEmpty();
    }

    /**
     * What each path's responses must say: the count of the rule's limit in its {@code RateLimit-Policy},
     * or {@code null} when no limit of the rule may be there (switched off, or removed).
     */
    static Map<String, Long> expected(boolean openLimited) {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("/user", 2L);
        expected.put("/open/plain", openLimited ? 1L : null);
        expected.put("/short", null);
        return expected;
    }

    /** Waits until Redis holds the operator's values again; how long that took. */
    static Duration awaitBack(RedisServerProcess redis, boolean openLimited, Duration bound) {
        long start = System.nanoTime();
        Awaitility.await("the config hash back in Redis").atMost(bound)
                .pollInterval(Duration.ofMillis(10)).ignoreExceptions().until(() -> isBack(redis, openLimited));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    static boolean isBack(RedisServerProcess redis, boolean openLimited) {
        Map<String, String> hash = redis.commands().hgetall(HASH);
        return "2".equals(hash.get(USER + ".count")) && "0".equals(hash.get(SHORT + ".check"))
                && (openLimited ? "1/60".equals(hash.get("dyn." + OPEN)) : !hash.containsKey("dyn." + OPEN));
    }
}
