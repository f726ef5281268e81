package dev.ratelimit.bench.call;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.rule.RuleId;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Calls of a limited bean method through its Spring proxy, in a running app on the benchmark's Redis: what
 * a limit outside HTTP costs a decision, the advisor, the call's SpEL key and the decision path included.
 * Counter {@code i} is the user {@code user-i}; the rule's count and window are the run's, set in the config hash.
 */
public final class BeanMethodLimiter implements Limiter {

    private final ConfigurableApplicationContext app;
    private final BenchClient client;
    private final String[] users;

    /** The app with the method's rule given {@code limit}, as an operator would set it in the config hash. */
    public BeanMethodLimiter(int redisPort, BenchLimit limit, int keys) {
        app = new SpringApplicationBuilder(CallBenchApplication.class).run("--server.port=0",
                "--spring.application.name=app-bench", "--spring.data.redis.port=" + redisPort,
                "--spring.main.banner-mode=off", "--logging.level.root=WARN");
        RuleId rule = RuleId.of("bench", "BenchClient.call");
        app.getBean(SysConfigEditor.class).setRuleLimit(rule, Long.toString(limit.count()),
                Long.toString(limit.window().toSeconds()));
        if (app.getBean(RuleCatalog.class).readNow().limit(rule).orElseThrow().count() != limit.count()) {
            throw new IllegalStateException("the rule " + rule + " did not take the limit " + limit);
        }
        client = app.getBean(BenchClient.class);
        users = new String[keys];
        for (int i = 0; i < keys; i++) {
            users[i] = "user-" + i;
        }
    }

    @Override
    public boolean tryAcquire(int key) {
        try {
            return client.call(users[key]);
        } catch (RateLimitExceededException refused) {
            return false;
        }
    }

    @Override
    public void close() {
        app.close();
    }
}
