package dev.ratelimit.interceptor.blocked;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.internal.background.IntervalRedisWriter;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.LuaScript;
import io.lettuce.core.ScriptOutputType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adds the clients this instance refuses to the list of blocked clients every instance shares
 * ({@link BlockedClients}). A refusal only notes the client and when its block ends, in memory; every
 * {@code interval} one background thread adds what was noted to Redis, one script per module, which
 * also drops ended blocks and keeps at most {@code maxPerModule} per module. In memory at most
 * {@code maxPending} clients wait for the next write; under a flood of identities the others are
 * left out of the list (and counted), never out of the limiting. What a write could not deliver (Redis
 * away) waits for the next one.
 */
public class BlockedClientRecorder extends IntervalRedisWriter implements RateLimitMetrics {

    private static final LuaScript ADD = LuaScript.load(BlockedClientRecorder.class, "blocked_clients.lua");
    /** Members per script call: bounded, so that a large write never holds Redis long. */
    private static final int MEMBERS_PER_CALL = 500;

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private final int maxPending;
    private final int maxPerModule;
    private final ConcurrentHashMap<Blocked, Refusals> pending = new ConcurrentHashMap<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final LongAdder leftOut = new LongAdder();

    public BlockedClientRecorder(BackgroundCommands redis, RedisKeys keys, Duration interval, int maxPending,
                                 int maxPerModule, Clock clock) {
        super("blocked clients", "they are missing from the list until Redis answers", interval, clock);
        this.redis = redis;
        this.keys = keys;
        this.maxPending = maxPending;
        this.maxPerModule = maxPerModule;
    }

    @Override
    public void outcome(RuleId rule, Outcome outcome) {
        // only refusals, through denied()
    }

    @Override
    public void decided(long nanos) {
        // only refusals, through denied()
    }

    @Override
    public void denied(LimitDefinition limit, String counterKey, long retryAfterMillis) {
        long now = clock().millis();
        note(new Blocked(limit.id().module(), keys.counterWithinModule(limit.id().module(), counterKey)),
                new Refusals(now + retryAfterMillis, now));
    }

    private void note(Blocked client, Refusals refusal) {
        Refusals known = pending.get(client);
        if (known != null) {
            if (!known.covers(refusal)) {
                pending.computeIfPresent(client, (same, noted) -> noted.and(refusal));
            }
            return;
        }
        if (pendingCount.incrementAndGet() > maxPending) {
            pendingCount.decrementAndGet();
            leftOut.increment();
            return;
        }
        if (pending.putIfAbsent(client, refusal) != null) {
            pendingCount.decrementAndGet(); // another thread noted it a moment ago
            pending.computeIfPresent(client, (same, noted) -> noted.and(refusal));
        }
    }

    /** Refused clients left out of the list since the start, because too many were waiting to be written. */
    public long leftOut() {
        return leftOut.sum();
    }

    /** What Redis did not take is noted again for the next write, unless its block has ended by then. */
    @Override
    protected void write() {
        Map<String, List<Map.Entry<Blocked, Refusals>>> perModule = new HashMap<>();
        for (Map.Entry<Blocked, Refusals> entry : pending.entrySet()) {
            if (pending.remove(entry.getKey(), entry.getValue())) {
                pendingCount.decrementAndGet();
                perModule.computeIfAbsent(entry.getKey().module(), module -> new ArrayList<>()).add(entry);
            }
        }
        List<List<Map.Entry<Blocked, Refusals>>> calls = new ArrayList<>();
        perModule.values().forEach(entries -> {
            for (int from = 0; from < entries.size(); from += MEMBERS_PER_CALL) {
                calls.add(entries.subList(from, Math.min(entries.size(), from + MEMBERS_PER_CALL)));
            }
        });
        long now = clock().millis();
        int written = 0;
        try {
            for (List<Map.Entry<Blocked, Refusals>> call : calls) {
                String module = call.get(0).getKey().module();
                List<String> args = new ArrayList<>(List.of(Long.toString(now), Integer.toString(maxPerModule),
                        Long.toString(BlockedClients.UNBLOCK_REMEMBERED.toMillis())));
                call.forEach(entry -> args.addAll(List.of(entry.getKey().member(),
                        Long.toString(entry.getValue().ends()), Long.toString(entry.getValue().last()))));
                redis.script(ADD, ScriptOutputType.INTEGER, List.of(keys.blocked(module), keys.unblocked(module)), args);
                written++;
            }
        } catch (RuntimeException e) {
            long later = clock().millis();
            calls.subList(written, calls.size()).forEach(call -> call.stream()
                    .filter(entry -> entry.getValue().ends() > later)
                    .forEach(entry -> note(entry.getKey(), entry.getValue())));
            throw e;
        }
    }

    private record Blocked(String module, String member) {
    }

    /** The refusals of one client noted since the last write: when its block ends, and the last one. */
    private record Refusals(long ends, long last) {

        boolean covers(Refusals other) {
            return ends >= other.ends && last >= other.last;
        }

        Refusals and(Refusals other) {
            return new Refusals(Math.max(ends, other.ends), Math.max(last, other.last));
        }
    }
}
