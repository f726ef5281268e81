package dev.ratelimit.interceptor.blocked;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The clients blocked now across every instance ({@link BlockedClientRecorder} writes them), and
 * Unblock: a sibling of {@code SysConfigEditor} for the counters.
 */
public class BlockedClients {

    /**
     * How long an unblock is remembered: refusals from before it that an instance has noted but not
     * yet written (within a write interval, longer only while Redis is away) do not list the client again.
     */
    static final Duration UNBLOCK_REMEMBERED = Duration.ofMinutes(10);

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private final SysConfigRepository config;
    private final Clock clock;

    public BlockedClients(BackgroundCommands redis, RedisKeys keys, SysConfigRepository config, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.config = config;
        this.clock = clock;
    }

    /**
     * The clients whose block has not ended, those blocked longest first, at most {@code limit} per module.
     * A block shows up within a write interval of the instances ({@code ratelimit.stats.flush-interval}).
     */
    public List<BlockedClient> now(Collection<String> modules, int limit) {
        long now = clock.millis();
        List<BlockedClient> blocked = new ArrayList<>();
        for (String module : modules) {
            List<ScoredValue<String>> members = redis.sync().zrevrangebyscoreWithScores(keys.blocked(module),
                    Range.from(Range.Boundary.including(now + 1), Range.Boundary.unbounded()), Limit.create(0, limit));
            for (ScoredValue<String> member : members) {
                BlockedClient client = BlockedClient.of(module, member.getValue(),
                        Instant.ofEpochMilli((long) member.getScore()));
                if (client != null) {
                    blocked.add(client);
                }
            }
        }
        blocked.sort(Comparator.comparing(BlockedClient::until).reversed().thenComparing(BlockedClient::module)
                .thenComparing(BlockedClient::member));
        return blocked;
    }

    /**
     * Frees one client: deletes its counter for the rule, so it starts afresh, has every instance
     * forget the denials it remembered (at once, through the config announcement), and takes it off
     * the list.
     *
     * @param member as {@link BlockedClient#member()} gives it
     * @return whether the client had a counter
     * @throws IllegalArgumentException when {@code member} names no client of a counter
     */
    public boolean unblock(String module, String member) {
        if (module == null || module.isBlank() || member == null || BlockedClient.of(module, member, Instant.EPOCH) == null) {
            throw new IllegalArgumentException("Not a blocked client: " + module + " " + member);
        }
        boolean existed = config.resetCounter(keys.counterOf(module, member));
        redis.sync().zadd(keys.unblocked(module), clock.millis(), member);
        redis.sync().pexpire(keys.unblocked(module), UNBLOCK_REMEMBERED.toMillis());
        redis.sync().zrem(keys.blocked(module), member);
        return existed;
    }
}
