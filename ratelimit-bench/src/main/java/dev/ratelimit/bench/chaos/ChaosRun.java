package dev.ratelimit.bench.chaos;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The chaos run (not CI): two instances of the fixture app, each a JVM of its own, under load for
 * {@code CHAOS_MINUTES} (10) while, round after round, Redis is killed and restarted empty, paused,
 * flushed, and an instance is paused. An operator lowered {@code /user} from 50 to 2 per minute per user,
 * limited {@code /open/plain} to 1 per minute with a {@code dyn} rule and switched {@code /short} off, before
 * the first round. {@link ChaosReport} says, from what the clients saw: how many responses were admitted
 * over the limit in one window while Redis answered, how many were 5xx, how many were decided by another
 * limit than the operator's, and how often the operator's values were not back in Redis after an event.
 *
 * <p>Usage: {@code ratelimit-bench/chaos-run.sh}; environment {@code CHAOS_MINUTES}, {@code CHAOS_THREADS} (8),
 * {@code CHAOS_USERS} (16), {@code OUT} (the report's folder).
 */
public final class ChaosRun {

    static final RuleId USER = RuleId.of("fixture", "LimitedController.user");
    static final RuleId OPEN = RuleId.of("fixture", "OpenController.plain");
    static final RuleId SHORT = RuleId.of("fixture", "LimitedController.shortWindow");
    static final long USER_COUNT = 2;
    static final long OPEN_COUNT = 1;
    private static final String HASH = "ratelimit:sysconfig";
    private static final Duration ROUND = Duration.ofSeconds(30);
    private static final Duration BACK_WITHIN = Duration.ofSeconds(15);
    private static final Duration REDIS_PAUSE = Duration.ofSeconds(3);
    private static final Duration INSTANCE_PAUSE = Duration.ofSeconds(5);

    private ChaosRun() {
    }

    public static void main(String[] args) throws Exception {
        Duration length = Duration.ofMinutes(Long.parseLong(env("CHAOS_MINUTES", "10")));
        int threads = Integer.parseInt(env("CHAOS_THREADS", "8"));
        int users = Integer.parseInt(env("CHAOS_USERS", "16"));
        Path out = Path.of(env("OUT", "ratelimit-bench/target/bench-results"), "chaos");
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            List<ChildApp> apps = List.of(ChildApp.start(redis.port()), ChildApp.start(redis.port()));
            try {
                String report = run(redis, apps, length, threads, users);
                System.out.println(report);
                Files.createDirectories(out);
                Files.writeString(out.resolve("chaos-report.md"), report);
            } finally {
                apps.forEach(ChildApp::close);
            }
        }
    }

    private static String run(RedisServerProcess redis, List<ChildApp> apps, Duration length, int threads, int users)
            throws Exception {
        Awaitility.await("the apps' declarations").atMost(Duration.ofSeconds(60))
                .until(() -> redis.commands().hexists(HASH, "declared." + USER + ".count"));
        SysConfigEditor editor = new SysConfigEditor(new SysConfigRepository(redis.connection().backgroundWork(),
                new RedisKeys("ratelimit")), Clock.systemUTC());
        editor.setRuleCount(USER, Long.toString(USER_COUNT));
        editor.setDynamicRule(OPEN, OPEN_COUNT + "/60");
        editor.setRuleSwitch(SHORT, false);
        Awaitility.await("both instances apply the operator's values").atMost(Duration.ofSeconds(30))
                .until(() -> apps.stream().allMatch(app -> app.http().get("/user?usercode=warm-up")
                        .headers().firstValue("RateLimit-Policy").orElse("").contains(";q=" + USER_COUNT + ";")));
        long start = System.nanoTime();
        List<ChaosEvent> events = new ArrayList<>();
        try (ChaosLoad load = new ChaosLoad(apps.stream().map(ChildApp::http).toList(), threads, users, start)) {
            long end = start + length.toNanos();
            for (int round = 0; System.nanoTime() + ROUND.toNanos() < end; round++) {
                TimeUnit.NANOSECONDS.sleep(ROUND.toNanos());
                events.add(event(round % 4, redis, apps, start));
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
            load.close();
            boolean keptAtEnd = operatorValuesIn(redis);
            return new ChaosReport(load.observations(), events, load.unanswered(), keptAtEnd, length, threads, users)
                    .markdown();
        }
    }

    private static ChaosEvent event(int kind, RedisServerProcess redis, List<ChildApp> apps, long start)
            throws InterruptedException {
        long begin = System.nanoTime() - start;
        String name;
        boolean redisAway = true;
        boolean resets = false;
        switch (kind) {
            case 0 -> {
                name = "Redis killed and restarted empty";
                resets = true;
                redis.restart();
            }
            case 1 -> {
                name = "Redis paused " + REDIS_PAUSE.toSeconds() + " s";
                redis.pause();
                TimeUnit.MILLISECONDS.sleep(REDIS_PAUSE.toMillis());
                redis.resume();
            }
            case 2 -> {
                name = "FLUSHALL";
                redisAway = false; // it answers throughout; every window starts afresh
                resets = true;
                redis.commands().flushall();
            }
            default -> {
                name = "an instance paused " + INSTANCE_PAUSE.toSeconds() + " s";
                redisAway = false;
                apps.get(0).pause();
                TimeUnit.MILLISECONDS.sleep(INSTANCE_PAUSE.toMillis());
                apps.get(0).resume();
            }
        }
        long answered = System.nanoTime() - start;
        long back = backMillis(redis);
        return new ChaosEvent(name, begin, answered, redisAway, resets, back);
    }

    /** From now until the operator's values are in Redis again, in ms; -1 when they are not within the bound. */
    private static long backMillis(RedisServerProcess redis) {
        long from = System.nanoTime();
        try {
            Awaitility.await().atMost(BACK_WITHIN).pollInterval(Duration.ofMillis(10)).ignoreExceptions()
                    .until(() -> operatorValuesIn(redis));
            return (System.nanoTime() - from) / 1_000_000;
        } catch (ConditionTimeoutException e) {
            return -1;
        }
    }

    static boolean operatorValuesIn(RedisServerProcess redis) {
        Map<String, String> hash = redis.commands().hgetall(HASH);
        return Long.toString(USER_COUNT).equals(hash.get(USER + ".count")) && "0".equals(hash.get(SHORT + ".check"))
                && (OPEN_COUNT + "/60").equals(hash.get("dyn." + OPEN));
    }

    /** The rule whose policy a path's response carries, and the count the operator set for it (-1: none). */
    static String ruleOf(String path) {
        return switch (path) {
            case "/user" -> USER.rule();
            case "/open/plain" -> OPEN.rule();
            case "/short" -> SHORT.rule();
            default -> throw new IllegalArgumentException(path);
        };
    }

    static long operatorCount(String path) {
        return switch (path) {
            case "/user" -> USER_COUNT;
            case "/open/plain" -> OPEN_COUNT;
            default -> -1;
        };
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? otherwise : value;
    }
}
