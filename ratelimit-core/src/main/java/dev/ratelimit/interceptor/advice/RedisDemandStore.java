package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.LuaScript;
import dev.ratelimit.interceptor.store.RedisKeys;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The demand in Redis, shared by every instance ({@link RedisKeys#demandBucket}): the reaches of a bucket a hash
 * each instance adds to by {@code HINCRBY}, the refused windows a hash beside it ({@code :refused}) that one script
 * adds to so that no two instances' highest counts race, the top clients a sorted set ({@code :top}) kept by
 * {@code ZADD GT}, the requests of each window of the rule's length a hash ({@code :windows}) added to by
 * {@code HINCRBY}. Writes and reads go on the connection of the limiter's background work, never a request's.
 */
public class RedisDemandStore implements DemandStore {

    private static final LuaScript ADD_REFUSED = LuaScript.load(RedisDemandStore.class, "demand_refused.lua");
    /** Clients listed per rule and bucket, those with the highest demand. */
    static final int TOP_CLIENTS = 100;
    private static final String HIGHEST = "|n";

    private final BackgroundCommands redis;
    private final RedisKeys keys;

    public RedisDemandStore(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void add(DemandWrite write) {
        if (!write.reaches().isEmpty() || !write.top().isEmpty() || !write.windows().isEmpty()) {
            redis.pipelined(commands -> {
                List<RedisFuture<?>> replies = new ArrayList<>();
                for (DemandGranularity granularity : DemandGranularity.values()) {
                    long ttl = granularity.retention().toSeconds();
                    write.reaches().forEach((rule, reaches) -> {
                        String key = key(rule, granularity, write.epochSecond());
                        reaches.forEach((bin, delta) -> replies.add(commands.hincrby(key, bin.field(), delta)));
                        replies.add(commands.expire(key, ttl));
                    });
                    write.top().forEach((rule, clients) -> {
                        String key = key(rule, granularity, write.epochSecond()) + ":top";
                        clients.forEach((client, demand) -> replies.add(
                                commands.zadd(key, ZAddArgs.Builder.gt(), (double) demand, client)));
                        replies.add(commands.zremrangebyrank(key, 0, -TOP_CLIENTS - 1));
                        replies.add(commands.expire(key, ttl));
                    });
                    write.windows().forEach((rule, windows) -> {
                        String key = key(rule, granularity, write.epochSecond()) + ":windows";
                        granularity.windows(windows).forEach((window, requests) ->
                                replies.add(commands.hincrby(key, window.field(), requests)));
                        replies.add(commands.expire(key, ttl));
                    });
                }
                return replies;
            });
        }
        Map<String, List<String>> byKey = new HashMap<>();
        for (RefusedWindow refused : write.refused()) {
            for (DemandGranularity granularity : DemandGranularity.values()) {
                List<String> args = byKey.computeIfAbsent(key(refused.rule(), granularity, write.epochSecond())
                        + ":refused", any -> new ArrayList<>(List.of(Long.toString(granularity.retention().toSeconds()))));
                args.add(refused.window());
                args.add(Long.toString(refused.refusals()));
                args.add(Long.toString(refused.highest()));
            }
        }
        byKey.forEach((key, args) -> redis.script(ADD_REFUSED, ScriptOutputType.INTEGER, List.of(key), args));
    }

    @Override
    public List<DemandBucket> read(RuleId rule, DemandGranularity granularity, long firstStart, long lastStart) {
        List<String> buckets = new ArrayList<>();
        for (long start = firstStart; start <= lastStart; start += granularity.size().toSeconds()) {
            buckets.add(keys.demandBucket(rule, granularity.label(), start));
        }
        List<Object> replies = redis.pipelined(commands -> buckets.stream()
                .flatMap(key -> Stream.of(commands.hgetall(key), commands.hgetall(key + ":refused"),
                        commands.zrevrangeWithScores(key + ":top", 0, LimitAdvisor.LISTED_CLIENTS - 1),
                        commands.hgetall(key + ":windows")))
                .toList());
        List<DemandBucket> read = new ArrayList<>();
        for (int i = 0; i < replies.size(); i += 4) {
            read.add(new DemandBucket(counts(replies.get(i), DemandBin::parse), refused(replies.get(i + 1)),
                    top(replies.get(i + 2)), counts(replies.get(i + 3), CountedWindow::parse)));
        }
        return read;
    }

    private String key(RuleId rule, DemandGranularity granularity, long epochSecond) {
        return keys.demandBucket(rule, granularity.label(), granularity.bucketStart(epochSecond));
    }

    /** The counts of a hash whose fields {@code parse} names; fields another version may write, or garbage, skipped. */
    private static <K> Map<K, Long> counts(Object reply, Function<String, K> parse) {
        Map<K, Long> counts = new HashMap<>();
        if (reply instanceof Map<?, ?> fields) {
            fields.forEach((field, value) -> {
                try {
                    counts.merge(parse.apply(String.valueOf(field)), Long.parseLong(String.valueOf(value)), Long::sum);
                } catch (IllegalArgumentException e) {
                    // not ours
                }
            });
        }
        return counts;
    }

    /** {@code <window>} holds the refusals, {@code <window>|n} the highest count. */
    private static Map<String, long[]> refused(Object reply) {
        Map<String, long[]> windows = new HashMap<>();
        if (reply instanceof Map<?, ?> fields) {
            fields.forEach((field, value) -> {
                String name = String.valueOf(field);
                boolean highest = name.endsWith(HIGHEST);
                String window = highest ? name.substring(0, name.length() - HIGHEST.length()) : name;
                try {
                    long number = Long.parseLong(String.valueOf(value));
                    windows.computeIfAbsent(window, any -> new long[2])[highest ? 1 : 0] = number;
                } catch (NumberFormatException e) {
                    // not ours
                }
            });
        }
        return windows;
    }

    private static Map<String, Long> top(Object reply) {
        Map<String, Long> top = new HashMap<>();
        if (reply instanceof List<?> clients) {
            for (Object scored : clients) {
                if (scored instanceof ScoredValue<?> client && client.hasValue()) {
                    top.merge(String.valueOf(client.getValue()), (long) client.getScore(), Math::max);
                }
            }
        }
        return top;
    }
}
