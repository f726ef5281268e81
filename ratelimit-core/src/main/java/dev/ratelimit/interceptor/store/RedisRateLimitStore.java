package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counters in Redis. Each decision is one {@code EVALSHA} of an algorithm's Lua script, which reads
 * Redis' own clock and does check-and-count atomically; the decisions of one request are sent together
 * on the limiter's connection, so several limits cost about one round trip. A request is decided on
 * Redis' word only: when Redis is judged silent or too slow ({@link ReplyWatch}) the store answers
 * {@link StoreResult.NotDecided}. Every decision Redis makes, in time or after the request gave up,
 * goes to the {@link DecisionListener}. Calls
 * answered {@code NOSCRIPT} (a fresh or restarted server, a promoted replica) are repeated once as
 * {@code EVAL}, which puts the script in that server's cache.
 */
public class RedisRateLimitStore implements RateLimitStore {

    private static final String HEAD = "counter_head.lua";
    /** What the fixed window and the token bucket share between their decision and a charge after the response. */
    private static final String FIXED_WINDOW_NOW = "fixed_window_now.lua";
    private static final String TOKEN_BUCKET_TIME = "token_bucket_time.lua";
    /** What a refund, a charge and a confirmation do first: the request's units are no longer pending. */
    private static final String PENDING_RELEASE = "pending_release.lua";
    private static final Map<Algorithm, LuaScript> SCRIPTS = new EnumMap<>(Map.of(
            Algorithm.FIXED_WINDOW, counting("fixed_window.lua", FIXED_WINDOW_NOW),
            Algorithm.SLIDING_WINDOW, counting("sliding_window.lua"),
            Algorithm.SLIDING_LOG, counting("sliding_log.lua"),
            Algorithm.TOKEN_BUCKET, counting("token_bucket.lua", TOKEN_BUCKET_TIME),
            Algorithm.CONCURRENCY, counting("concurrency.lua")));
    /**
     * The fixed window of a request that sends the first two arguments only (one unit on Redis' clock, nothing
     * else): what nearly every decision is, decided as {@link #SCRIPTS}' fixed window decides it, without the
     * options' Lua, which is most of what a decision costs Redis.
     */
    private static final LuaScript PLAIN_FIXED_WINDOW = LuaScript.load("fixed_window_plain.lua");
    private static final Map<Algorithm, LuaScript> REFUNDS = new EnumMap<>(Map.of(
            Algorithm.FIXED_WINDOW, LuaScript.load(HEAD, PENDING_RELEASE, "fixed_window_refund.lua"),
            Algorithm.SLIDING_WINDOW, LuaScript.load(HEAD, PENDING_RELEASE, "sliding_window_refund.lua"),
            Algorithm.SLIDING_LOG, LuaScript.load(HEAD, PENDING_RELEASE, "sliding_log_refund.lua"),
            Algorithm.TOKEN_BUCKET, LuaScript.load(HEAD, PENDING_RELEASE, "token_bucket_refund.lua"),
            Algorithm.CONCURRENCY, LuaScript.load(HEAD, "concurrency_refund.lua")));
    private static final Map<Algorithm, LuaScript> CHARGES = new EnumMap<>(Map.of(
            Algorithm.FIXED_WINDOW, LuaScript.load(HEAD, FIXED_WINDOW_NOW, PENDING_RELEASE, "fixed_window_charge.lua"),
            Algorithm.TOKEN_BUCKET, LuaScript.load(HEAD, TOKEN_BUCKET_TIME, PENDING_RELEASE, "token_bucket_charge.lua")));
    /** The confirmation of a request whose pending units its response keeps counted. */
    private static final LuaScript KEPT = LuaScript.load(HEAD, PENDING_RELEASE, "pending_kept.lua");
    private static final LuaScript RENEWAL = LuaScript.load(HEAD, "concurrency_renew.lua");
    /** The arguments of {@code counter_head.lua} before the leases. */
    private static final int HEAD_ARGS = 12;
    /** All the arguments of {@code counter_head.lua}. */
    private static final int ALL_ARGS = 18;
    private static final byte[] NO_VALUE = new byte[0];
    private static final byte[] PEEK = bytes("1");
    private static final byte[] SETTLED = bytes("1");

    private static final Logger log = LoggerFactory.getLogger(RedisRateLimitStore.class);

    private final LimiterRedisConnection connection;
    private final @Nullable Clock testClock;
    private volatile DecisionListener listener = DecisionListener.IGNORE;
    private final LongAdder refundsAnswered = new LongAdder();
    private final EncodedNumbers encoded = new EncodedNumbers();
    private final LongAdder renewalsAnswered = new LongAdder();
    private final LongAdder settlementsAnswered = new LongAdder();

    public RedisRateLimitStore(LimiterRedisConnection connection) {
        this(connection, null);
    }

    /**
     * @param testClock the time the scripts decide at, instead of Redis' own: only for tests that feed
     *                  this and the in-process store one clock
     */
    RedisRateLimitStore(LimiterRedisConnection connection, @Nullable Clock testClock) {
        this.connection = connection;
        this.testClock = testClock;
    }

    /** Where every decision Redis makes goes, those that came too late for their request included. */
    public void decisionsTo(DecisionListener listener) {
        this.listener = listener;
    }

    /** Opens the connection and loads every script, waiting {@code connectTimeout} at most. */
    public void open(Duration connectTimeout) {
        connection.open(scriptBodies(), connectTimeout);
    }

    /**
     * Starts opening the connection and loading every script; the app's start waits for it once its beans
     * are made: see {@link LimiterRedisConnection#beginOpening}.
     */
    public void beginOpening(Duration connectTimeout) {
        connection.beginOpening(scriptBodies(), connectTimeout);
    }

    private static List<byte[]> scriptBodies() {
        return Stream.of(SCRIPTS.values().stream(), REFUNDS.values().stream(), CHARGES.values().stream(),
                        Stream.of(PLAIN_FIXED_WINDOW, KEPT, RENEWAL))
                .flatMap(scripts -> scripts).map(LuaScript::body).toList();
    }

    @Override
    public Set<Algorithm> supportedAlgorithms() {
        return SCRIPTS.keySet();
    }

    @Override
    public StoreDescription describe() {
        return new StoreDescription("redis", Map.of("silence", connection.silence().toString(),
                "maxWait", connection.maxWait().toString(), "refundsAnswered", refundsAnswered.sum(),
                "renewalsAnswered", renewalsAnswered.sum(), "settlementsAnswered", settlementsAnswered.sum()));
    }

    @Override
    public StoreResult acquire(List<CounterRequest> requests) {
        return decide(requests, false);
    }

    /** The counting scripts in their peeking mode: they write nothing, and no listener hears of it. */
    @Override
    public StoreResult peek(List<CounterRequest> requests) {
        return decide(requests, true);
    }

    private StoreResult decide(List<CounterRequest> requests, boolean peek) {
        long sentAt = System.nanoTime();
        DecisionListener listener = peek ? DecisionListener.IGNORE : this.listener;
        List<ScriptCall> calls = new ArrayList<>(requests.size());
        for (CounterRequest request : requests) {
            calls.add(call(request, peek));
        }
        List<CompletableFuture<Object>> replies;
        try {
            replies = connection.send(calls, false);
            ReplyWatch.Outcome outcome = connection.await(replies);
            if (outcome != ReplyWatch.Outcome.ANSWERED) {
                return givenUp(requests, replies, outcome, sentAt, listener);
            }
            if (anyNoScript(replies)) {
                // EVAL runs on the server that holds each key and leaves the script in its cache. SCRIPT LOAD
                // would go to every node of a cluster and fail as long as any one of them is down, so a
                // promoted replica that never saw the scripts would stay without them.
                replies = connection.send(calls, true);
                outcome = connection.await(replies);
                if (outcome != ReplyWatch.Outcome.ANSWERED) {
                    return givenUp(requests, replies, outcome, sentAt, listener);
                }
            }
        } catch (RuntimeException e) {
            return StoreResult.NotDecided.pass(e.toString());
        }
        // An array made a list once: the result keeps that list, where a list built up would be copied again.
        Decision[] decisions = new Decision[requests.size()];
        for (int i = 0; i < requests.size(); i++) {
            CompletableFuture<Object> reply = replies.get(i);
            if (reply.isCompletedExceptionally()) {
                return StoreResult.NotDecided.pass(failure(reply));
            }
            Decision decision = decision(requests.get(i), reply.join(), peek);
            listener.decided(requests.get(i), decision, sentAt);
            decisions[i] = decision;
        }
        return new StoreResult.Decided(List.of(decisions));
    }

    /**
     * Sends the refunds without waiting for them, as the request is done by now. A refund answered
     * {@code NOSCRIPT} (it did nothing) is sent once more as {@code EVAL}; any other failure is only logged.
     */
    @Override
    public void refund(List<Refund> refunds) {
        List<ScriptCall> calls = new ArrayList<>(refunds.size());
        for (Refund refund : refunds) {
            calls.add(new ScriptCall(script(REFUNDS, refund.request().algorithm()), settlingKeys(refund.request()),
                    args(refund.request(), number(refund.reservedAt()), false)));
        }
        sendWithoutWaiting("refunds", calls, refundsAnswered, (i, reply) -> undone(refunds.get(i), reply));
    }

    /** A fixed window's refund that gave units back answers the counts before and after: its {@code undone} hears them. */
    private static void undone(Refund refund, Object reply) {
        if (refund.undone() != Refund.Undone.NONE && reply instanceof List<?> values && values.size() > 2
                && number(values, 0) == 1) {
            refund.undone().counts(number(values, 2), number(values, 1));
        }
    }

    /**
     * A charge script for what a response used beyond its estimate, a refund script for what it did not use, a
     * confirmation for a request that holds its units pending and used them all, all sent together without
     * waiting, as refunds are.
     */
    @Override
    public void settle(List<Settlement> settlements) {
        List<ScriptCall> calls = new ArrayList<>(settlements.size());
        for (Settlement settlement : settlements) {
            CounterRequest request = settlement.request();
            long difference = settlement.difference();
            if (difference == 0 && !request.holdsPendingUnits()) {
                continue;
            }
            LuaScript script = difference > 0 ? script(CHARGES, request.algorithm())
                    : difference < 0 ? script(REFUNDS, request.algorithm()) : KEPT;
            byte[][] args = args(request, number(settlement.reservedAt()), false);
            if (difference != 0) {
                args[3] = number(Math.abs(difference));
            }
            calls.add(new ScriptCall(script, settlingKeys(request), args));
        }
        if (!calls.isEmpty()) {
            sendWithoutWaiting("settlements", calls, settlementsAnswered, ANY_REPLY);
        }
    }

    /**
     * One renewal script per key, naming every lease of the key, all sent together without waiting: the
     * requests go on either way, and a lease that is not renewed in time expires, which is what a lease is for.
     */
    @Override
    public void renew(List<CounterRequest> leases) {
        Map<String, List<CounterRequest>> byKey = new LinkedHashMap<>();
        leases.forEach(lease -> byKey.computeIfAbsent(lease.key(), key -> new ArrayList<>()).add(lease));
        List<ScriptCall> calls = new ArrayList<>(byKey.size());
        for (List<CounterRequest> ofKey : byKey.values()) {
            byte[][] args = Arrays.copyOf(args(ofKey.get(0), null, false), HEAD_ARGS + ofKey.size());
            for (int i = 0; i < args.length; i++) {
                args[i] = i >= HEAD_ARGS
                        ? bytes(Objects.requireNonNull(ofKey.get(i - HEAD_ARGS).lease(), "renewals are of leases"))
                        : args[i] == null ? NO_VALUE : args[i];
            }
            calls.add(new ScriptCall(RENEWAL, new byte[][] {bytes(ofKey.get(0).key())}, args));
        }
        sendWithoutWaiting("lease renewals", calls, renewalsAnswered, ANY_REPLY);
    }

    /**
     * Sends the calls and counts their answers as they come, each answer first handed to {@code replies} with its
     * call's index; a call answered {@code NOSCRIPT} goes once more as {@code EVAL}.
     */
    private void sendWithoutWaiting(String what, List<ScriptCall> calls, LongAdder answered, ReplyConsumer replies) {
        try {
            List<CompletableFuture<Object>> sent = connection.send(calls, false);
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                    .whenComplete((done, error) -> sendAgainIfUnknown(what, calls, sent, answered, replies));
        } catch (RuntimeException e) {
            log.debug("Rate limit store: {} not sent: {}", what, e.toString());
        }
    }

    private void sendAgainIfUnknown(String what, List<ScriptCall> calls, List<CompletableFuture<Object>> sent,
                                    LongAdder answered, ReplyConsumer replies) {
        List<Integer> again = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            if (!sent.get(i).isCompletedExceptionally()) {
                replies.accept(i, sent.get(i).join());
                answered.increment();
            } else if (failure(sent.get(i)).contains("NOSCRIPT")) {
                again.add(i);
            } else {
                log.debug("Rate limit store: one of the {} failed: {}", what, failure(sent.get(i)));
            }
        }
        if (!again.isEmpty()) {
            List<CompletableFuture<Object>> resent = connection.send(again.stream().map(calls::get).toList(), true);
            for (int j = 0; j < resent.size(); j++) {
                int i = again.get(j);
                resent.get(j).thenAccept(reply -> {
                    replies.accept(i, reply);
                    answered.increment();
                });
            }
        }
    }

    /** What is done with the answer to the {@code index}-th call sent without waiting. */
    @FunctionalInterface
    private interface ReplyConsumer {
        void accept(int index, Object reply);
    }

    private static final ReplyConsumer ANY_REPLY = (index, reply) -> { };

    /** Hands each reply that still comes to the listener: Redis counted those requests. */
    private StoreResult givenUp(List<CounterRequest> requests, List<CompletableFuture<Object>> replies,
                                ReplyWatch.Outcome outcome, long sentAt, DecisionListener listener) {
        for (int i = 0; i < requests.size(); i++) {
            CounterRequest request = requests.get(i);
            replies.get(i).thenAccept(reply -> listener.decided(request, decision(request, reply, false), sentAt));
        }
        return StoreResult.NotDecided.pass(switch (outcome) {
            case SILENT -> "Redis answered nothing for " + connection.silence().toMillis() + " ms";
            case TOO_SLOW -> "Redis did not answer within " + connection.maxWait().toMillis() + " ms";
            default -> "interrupted while waiting for Redis";
        });
    }

    /** The keys of a refund, charge or confirmation: the counter, and the penalty hash where its units are pending. */
    private static byte[][] settlingKeys(CounterRequest request) {
        byte[] key = bytes(request.key());
        return request.holdsPendingUnits() ? new byte[][] {key, bytes(RedisKeys.penalty(request.key()))}
                : new byte[][] {key};
    }

    private ScriptCall call(CounterRequest request, boolean peek) {
        byte[] key = bytes(request.key());
        byte[][] args = args(request, null, peek);
        LuaScript script = request.algorithm() == Algorithm.FIXED_WINDOW && args.length == 2 ? PLAIN_FIXED_WINDOW
                : script(SCRIPTS, request.algorithm());
        return request.penalty().applies()
                ? new ScriptCall(script, new byte[][] {key, bytes(RedisKeys.penalty(request.key()))}, args)
                : new ScriptCall(script, new byte[][] {key}, args);
    }

    /**
     * The arguments of {@code counter_head.lua}: limit, window, the test's clock, the cost, a refund's
     * reservation, a penalty's blocks, a calendar quota's period starts, the peeking flag, a lease, the
     * settled flag, a batch, its sharers and what the instance holds, the units it holds pending; empty where a
     * later one follows, left out at the end. The common request (no test clock, cost 1) sends the first two only.
     */
    private byte[][] args(CounterRequest request, byte @Nullable [] reservedAt, boolean peek) {
        byte[][] args = new byte[ALL_ARGS][];
        Arrays.fill(args, NO_VALUE);
        args[0] = encoded.of(request.count());
        args[1] = encoded.of(request.windowMillis());
        if (testClock != null) {
            args[2] = bytes(Long.toString(testClock.millis()));
        }
        if (request.cost() != 1) {
            args[3] = encoded.of(request.cost());
        }
        if (reservedAt != null) {
            args[4] = reservedAt;
        }
        Penalty penalty = request.penalty();
        if (penalty.applies()) {
            args[5] = encoded.of(penalty.firstBlockMillis());
            args[6] = encoded.of(penalty.longestMillis());
        }
        CalendarBounds calendar = request.calendar();
        if (calendar != null) {
            args[7] = encoded.of(calendar.previous());
            args[8] = encoded.of(calendar.current());
            args[9] = encoded.of(calendar.next());
            args[10] = encoded.of(calendar.afterNext());
        }
        if (peek) {
            args[11] = PEEK;
        }
        if (request.lease() != null) {
            args[12] = bytes(request.lease());
        }
        if (request.settled()) {
            args[13] = SETTLED;
        }
        BatchRequest batch = request.batch();
        if (batch != null && !peek && reservedAt == null) {
            args[14] = encoded.of(batch.units());
            args[15] = encoded.of(batch.sharers());
            args[16] = encoded.of(batch.held());
        }
        if (request.holdsPendingUnits() && !peek) {
            args[17] = encoded.of(request.cost());
        }
        int used = args.length;
        while (used > 2 && args[used - 1].length == 0) {
            used--;
        }
        return Arrays.copyOf(args, used);
    }

    /**
     * A counting script: the head, what it shares with the algorithm's charge script, the algorithm as a
     * function, the tail that applies a penalty.
     */
    private static LuaScript counting(String algorithm, String... shared) {
        List<String> parts = new ArrayList<>(List.of(HEAD));
        parts.addAll(List.of(shared));
        parts.addAll(List.of("decide_open.lua", algorithm, "counter_tail.lua"));
        return LuaScript.load(parts.toArray(String[]::new));
    }

    /**
     * An admission may end with the batch taken for it; a fixed window's denial that stays counted ends with the
     * client's demand. A fixed window's admission tells the demand by what is left: the limit less the remaining
     * and the batch's units. A peek counts nothing, so it tells no demand.
     */
    private static Decision decision(CounterRequest request, Object reply, boolean peek) {
        List<?> values = (List<?>) reply;
        boolean allowed = number(values, 0) == 1;
        long remaining = number(values, 1);
        Batch batch = allowed && values.size() > 5
                ? new Batch(number(values, 5), number(values, 6), number(values, 7)) : Batch.NONE;
        long demand = 0;
        if (!allowed && values.size() > 5) {
            demand = number(values, 5);
        } else if (allowed && !peek && request.algorithm() == Algorithm.FIXED_WINDOW) {
            demand = request.count() - remaining - batch.units();
        }
        return new Decision(allowed, request.count(), remaining, number(values, 2), number(values, 3),
                number(values, 4), batch, demand);
    }

    /** The script that decides a request of the algorithm whatever its options. */
    static LuaScript countingScript(Algorithm algorithm) {
        return script(SCRIPTS, algorithm);
    }

    /** The script that decides a fixed window's request without options ({@link #PLAIN_FIXED_WINDOW}). */
    static LuaScript plainFixedWindowScript() {
        return PLAIN_FIXED_WINDOW;
    }

    private static LuaScript script(Map<Algorithm, LuaScript> scripts, Algorithm algorithm) {
        LuaScript script = scripts.get(algorithm);
        if (script == null) {
            throw new IllegalArgumentException("No Redis script for " + algorithm);
        }
        return script;
    }

    private static long number(List<?> reply, int index) {
        return ((Number) reply.get(index)).longValue();
    }

    private static byte[] number(long value) {
        return bytes(Long.toString(value));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean anyNoScript(List<CompletableFuture<Object>> replies) {
        for (CompletableFuture<Object> reply : replies) {
            if (reply.isCompletedExceptionally() && failure(reply).contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    /** What the error reply or the failure says, causes included. */
    private static String failure(CompletableFuture<Object> reply) {
        try {
            reply.join();
            return "";
        } catch (CompletionException | CancellationException e) {
            StringBuilder text = new StringBuilder();
            for (Throwable cause = e.getCause() != null ? e.getCause() : e; cause != null; cause = cause.getCause()) {
                if (!text.isEmpty()) {
                    text.append("; ");
                }
                text.append(cause);
            }
            return text.toString();
        }
    }
}
