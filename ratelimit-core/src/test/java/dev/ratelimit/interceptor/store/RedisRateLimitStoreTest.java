package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Redis store on its connection, with the shipped timeouts: the limits of one request sent together
 * on the connection it has, scripts loaded again when Redis lost them, a silent Redis given up after the
 * silence timeout, and the replies that come after that handed on.
 */
class RedisRateLimitStoreTest {

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final LimiterRedisConnection connection = redis.connection();
    private final RedisRateLimitStore store = new RedisRateLimitStore(connection);

    @BeforeEach
    void open() {
        store.open(Duration.ofSeconds(1));
    }

    @AfterEach
    void stop() {
        if (redis.isRunning()) {
            redis.commands().ping(); // waits for a pause to end
        }
        redis.close();
    }

    @Test
    void theScriptsAreLoadedWhenTheStoreOpens() {
        assertThat(redis.commands().info("commandstats")).contains("cmdstat_script");
        long evalsBefore = redis.calls("eval");

        assertThat(decided(requests("first"))).extracting(Decision::allowed).containsOnly(true);

        assertThat(redis.calls("eval")).as("no script sent whole").isEqualTo(evalsBefore);
    }

    @Test
    void severalLimitsOfARequestAreDecidedTogetherWithoutANewConnection() {
        decided(requests("warm-up"));
        long connectionsBefore = stat("total_connections_received");

        for (int i = 0; i < 50; i++) {
            assertThat(decided(requests("user-" + (i % 10)))).extracting(Decision::count).containsExactly(10L, 3L, 1000L);
        }

        assertThat(stat("total_connections_received")).as("connections opened by 50 requests").isEqualTo(connectionsBefore);
        // The sixth request of user-0: within 10 and 1000, past the bucket of 3.
        assertThat(decided(requests("user-0"))).extracting(Decision::allowed).containsExactly(true, false, true);
        assertThat(redis.commands().hget("test:fw:user-0", "count")).isEqualTo("6");
    }

    @Test
    void scriptsThatRedisForgotAreSentWholeOnce() {
        redis.commands().scriptFlush();

        assertThat(decided(requests("after-flush"))).extracting(Decision::allowed).containsOnly(true);
        assertThat(decided(requests("after-flush"))).extracting(Decision::allowed).containsExactly(true, true, true);
        assertThat(redis.commands().hget("test:fw:after-flush", "count")).isEqualTo("2");
    }

    /**
     * Redis holds every command for a while: the request is given up as silent before Redis answers again, and its
     * answers are handed on once they come. How long it waits is the silence timeout counted in slices in which this
     * process could have read a reply (see {@link ReplyWatch}): about the timeout on an idle machine, longer when the
     * test's fork is starved of CPU by the other fork, as CI's two forks on two cores do. So the pause is long enough
     * for a starved wait to be judged too, and the wait is held to end before it.
     */
    @Test
    void aSilentRedisIsGivenUpAfterTheSilenceTimeoutAndItsLateAnswersAreHandedOn() {
        decided(requests("warm-up"));
        List<Decision> late = new CopyOnWriteArrayList<>();
        store.decisionsTo((request, decision, sentAtNanos) -> late.add(decision));
        Duration pause = Duration.ofSeconds(6);
        redis.commands().clientPause(pause.toMillis());

        long start = System.nanoTime();
        StoreResult result = store.acquire(requests("paused"));
        long waitedMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(result).isInstanceOfSatisfying(StoreResult.NotDecided.class, notDecided -> {
            assertThat(notDecided.refuse()).isFalse();
            assertThat(notDecided.reason()).isEqualTo("Redis answered nothing for "
                    + ShippedDefaults.SILENCE.toMillis() + " ms");
        });
        assertThat(waitedMillis).as("given up after the silence timeout, before Redis answers again")
                .isBetween(ShippedDefaults.SILENCE.toMillis(), pause.toMillis() - 1);
        Awaitility.await().atMost(pause.plusSeconds(5)).until(() -> late.size() == 3);
        assertThat(late).extracting(Decision::count).containsExactlyInAnyOrder(10L, 3L, 1000L);
        assertThat(redis.commands().hget("test:fw:paused", "count")).as("Redis did count it").isEqualTo("1");
    }

    /**
     * The threads that read the connection's replies get no CPU for four silence timeouts (held by a task
     * each, as a starved process holds them) while a request waits: Redis did not fall silent, so the
     * request waits for them and is decided by Redis, not by the failure policy as well.
     */
    @Test
    void aRequestWaitingWhileTheEventLoopsStallIsDecidedByRedis() throws InterruptedException {
        decided(requests("warm-up"));
        Duration stall = ShippedDefaults.SILENCE.multipliedBy(4);
        EventLoopGroupProvider provider = connection.client().getResources()
                .eventLoopGroupProvider();
        EventLoopGroup loops = provider.allocate(Transports.eventLoopGroupClass());
        List<EventExecutor> each = new ArrayList<>();
        loops.forEach(each::add);
        CountDownLatch stalled = new CountDownLatch(each.size());
        each.forEach(loop -> loop.execute(() -> {
            stalled.countDown();
            LockSupport.parkNanos(stall.toNanos()); // the stall itself, the scenario under test
        }));
        stalled.await();

        StoreResult result = store.acquire(requests("stalled"));
        provider.release(loops, 0, 2, TimeUnit.SECONDS);

        assertThat(Stores.decided(result)).extracting(Decision::allowed).containsOnly(true);
        assertThat(redis.commands().hget("test:fw:stalled", "count")).isEqualTo("1");
    }

    @Test
    void aRedisThatIsDownIsNotDecided() {
        decided(requests("warm-up"));
        redis.stop();

        long start = System.nanoTime();
        StoreResult result = store.acquire(requests("down"));

        assertThat(result).isInstanceOf(StoreResult.NotDecided.class);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(ShippedDefaults.MAX_WAIT.toMillis());
    }

    /**
     * A fixed window's request without options (one unit, Redis' clock, no penalty) goes to the plain script, any
     * other to the script of every option; both decide such a request alike, in the same hash: a window from its
     * first request, denials counted with the client's demand, a window an operator shortened, an orphan without
     * TTL or without start, a window whose requests were all given back. Their clocks are Redis' own, read a moment
     * apart, so each answer's times are compared as what they say of the window: whether there is a wait, and when
     * the window ends after its start.
     */
    @Test
    void aPlainRequestIsDecidedAsTheScriptOfEveryOptionDecidesIt() {
        String plain = RedisRateLimitStore.plainFixedWindowScript().sha1();
        String full = RedisRateLimitStore.countingScript(Algorithm.FIXED_WINDOW).sha1();
        redis.commands().scriptFlush();
        decided(List.of(new CounterRequest("test:plain:which", Algorithm.FIXED_WINDOW, 10, 60_000)));
        assertThat(redis.commands().scriptExists(plain, full)).as("plain, full").containsExactly(true, false);
        decided(List.of(new CounterRequest("test:plain:which", Algorithm.FIXED_WINDOW, 10, 60_000, 2, false,
                Penalty.NONE)));
        assertThat(redis.commands().scriptExists(full)).as("a cost of 2").containsExactly(true);

        long now = redisMillis();
        for (String script : List.of(plain, full)) {
            redis.commands().hset(script + ":shortened", Map.of("count", "2", "start", Long.toString(now - 10_000)));
            redis.commands().pexpire(script + ":shortened", 50_000);
            redis.commands().hset(script + ":orphan", Map.of("count", "2", "start", Long.toString(now - 1_000)));
            redis.commands().hset(script + ":no-start", "count", "5");
            redis.commands().hset(script + ":given-back", Map.of("count", "0", "start", Long.toString(now - 1_000)));
            redis.commands().pexpire(script + ":given-back", 59_000);
        }
        Map<String, Long> windows = Map.of("fresh", 60_000L, "shortened", 5_000L, "orphan", 60_000L,
                "no-start", 60_000L, "given-back", 60_000L);
        for (Map.Entry<String, Long> counter : windows.entrySet()) {
            for (int i = 0; i < 5; i++) {
                List<Object> answers = new ArrayList<>();
                for (String script : List.of(plain, full)) {
                    String key = script + ":" + counter.getKey();
                    List<Long> reply = redis.commands().evalsha(script, ScriptOutputType.MULTI, new String[] {key},
                            "3", Long.toString(counter.getValue()));
                    long start = Long.parseLong(redis.commands().hget(key, "start"));
                    answers.add(List.of(reply.get(0), reply.get(1), reply.get(2) == 0, reply.size() > 5 ? reply.get(5) : -1,
                            reply.get(4) + reply.get(3) - start, redis.commands().hget(key, "count"),
                            redis.commands().pttl(key) > 0));
                }
                assertThat(answers.get(0)).as("%s, request %d: plain (allowed, remaining, no wait, demand, window's "
                        + "end after its start, count, TTL) against the full script", counter.getKey(), i + 1)
                        .isEqualTo(answers.get(1));
            }
        }
    }

    private long redisMillis() {
        List<String> time = redis.commands().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    private List<Decision> decided(List<CounterRequest> requests) {
        return Stores.decided(store.acquire(requests));
    }

    private static List<CounterRequest> requests(String identity) {
        return List.of(new CounterRequest("test:fw:" + identity, Algorithm.FIXED_WINDOW, 10, 60_000),
                new CounterRequest("test:tb:" + identity, Algorithm.TOKEN_BUCKET, 3, 60_000),
                new CounterRequest("test:sw:" + identity, Algorithm.SLIDING_WINDOW, 1000, 60_000));
    }

    private long stat(String name) {
        return redis.commands().info("stats").lines().filter(line -> line.startsWith(name + ":"))
                .map(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).strip())).findFirst().orElseThrow();
    }
}
