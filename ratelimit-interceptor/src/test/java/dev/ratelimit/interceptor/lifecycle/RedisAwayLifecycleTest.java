package dev.ratelimit.interceptor.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.testsupport.ChildApp;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An app started, used and stopped ({@code SIGTERM}, a JVM of its own) in every {@link RedisState}, with the
 * shipped settings: it starts and stops within a bound that shows it waits for no Redis command timeout,
 * logs no error, and answers none of its own endpoints, limited or not, with a 5xx while Redis is away.
 * Prints the start and stop times.
 */
class RedisAwayLifecycleTest {

    /** Generous: a stop that waits for a Redis command timeout takes a minute (Lettuce's default) or more. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(10);
    /**
     * From the launch of the JVM, which takes most of it: generous for a busy machine, and exceeded by a
     * start that waits for the app's command timeout (60 s).
     */
    private static final Duration START_BOUND = Duration.ofSeconds(40);
    private static final int ROUNDS = 3;
    /** A logger of ours, as Spring Boot's console pattern abbreviates it ({@code d.r.i.store.LimiterRedisConnection}). */
    private static final Pattern LIMITER_LOGGER = Pattern.compile(" (d\\.r|dev\\.ratelimit)\\.");

    /**
     * The app's endpoints, one for each kind of limit the fixture has and one without a rule. The app's
     * Redis timeout is Spring Boot's default (none set: Lettuce's 60 s), not the fixture's 2 s, which would
     * hide a stop that waits for it.
     */
    private static final List<String> ENDPOINTS = Stream.concat(
            AlgorithmController.WINDOWED.stream().map(AlgorithmController::path),
            Stream.of("/concurrent/sleeping?run=lifecycle", "/relay", "/classwide/first", "/quota/day", "/planned",
                    "/stacked", "/ip", "/method", "/global/a", "/open/plain")).toList();

    @ParameterizedTest
    @EnumSource(RedisState.class)
    void startsAndStopsWithinSecondsWithoutAnErrorOrA5xx(RedisState state) throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start(state.serverOptions());
             AutoCloseable undo = state.beforeStart(redis);
             ChildApp app = ChildApp.start(redis.port(), "spring.data.redis.timeout=")) {
            state.whileServing(redis);
            HttpProbe http = app.http();
            for (int round = 0; round < ROUNDS; round++) {
                for (String endpoint : ENDPOINTS) {
                    String path = endpoint + (endpoint.contains("?") ? "&" : "?") + "usercode=" + state + "-" + round;
                    assertThat(http.status(path)).as("%s with Redis %s", path, state).isLessThan(500);
                }
            }

            Duration stop = app.terminate();

            System.out.printf("FIGURES lifecycle, Redis %s: start %d ms (JVM launch to serving), stop %d ms "
                    + "(SIGTERM to exit)%n", state, app.startTime().toMillis(), stop.toMillis());
            List<String> log = Files.readAllLines(app.output());
            assertThat(log).as("the app's log, %s", app.output())
                    .noneMatch(line -> line.contains(" ERROR ") || line.startsWith("Exception in thread"));
            int started = IntStream.range(0, log.size()).filter(i -> log.get(i).contains(" Started ")).findFirst()
                    .orElseThrow();
            state.warningsAtStart().ifPresent(warnings -> assertThat(log.subList(0, started))
                    .as("the limiter's warnings until started, Redis %s", state)
                    .filteredOn(line -> line.contains(" WARN ") && LIMITER_LOGGER.matcher(line).find())
                    .hasSize(warnings));
            assertThat(app.startTime()).as("start").isLessThan(START_BOUND);
            assertThat(stop).as("stop").isLessThan(STOP_BOUND);
        }
    }
}
